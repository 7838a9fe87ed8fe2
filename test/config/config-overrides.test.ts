import { describe, expect, it } from 'vitest';
import { loadCheckedConfig, loadConfig } from '../../src/config/load-config.ts';
import { parseSet } from '../../src/config/config-overrides.ts';
import { configErrorLines, lineOf, tempDir } from './helpers.ts';

/** `--set key=value`: any config key, checked exactly as the YAML is, errors naming the flag. */

const tmp = tempDir();
const TEXT = `mode: backtest
data:
  markets: { filter: { maxCount: 2 } }
strategies:
  - id: mm
    module: strategies/market-maker.ts
    params: { size: 10 }
  - id: off
    enabled: false
    module: strategies/market-maker.ts
risk:
  maxOrderNotional: 100
`;
const file = tmp.write('mm.yaml', TEXT);
const set = (...specs: string[]) => ({ overrides: specs.map(parseSet) });

describe('config overrides', () => {
  it('sets any key over the file, creating sections on the way; the last one wins', () => {
    const c = loadConfig(file, {}, set('backtest.queueModel=optimistic', 'risk.maxOrderNotional=50', 'paper.balance=5', 'backtest.queueModel=probabilistic'));
    expect(c.backtest.queueModel).toBe('probabilistic');
    expect(c.risk.maxOrderNotional).toBe(50_000_000);
    const plain = loadConfig(file, {});
    expect(plain.backtest.queueModel).toBe('conservative');
  });

  it('sets a strategy parameter by id, by the shorthand of the one enabled strategy, or by its full path', async () => {
    for (const spec of ['mm.size=7', 'size=7', 'strategies.mm.params.size=7']) {
      const c = await loadCheckedConfig(file, {}, set(spec));
      expect(c.strategies[0]!.params).toMatchObject({ size: 7 });
    }
    const off = loadConfig(file, {}, set('strategies.off.enabled=true'));
    expect(off.strategies[1]!.enabled).toBe(true);
  });

  it('refuses a bad value or key with one line naming the key and the flag', async () => {
    expect(configErrorLines(() => loadConfig(file, {}, set('backtest.queueModel=lucky')))).toEqual([
      'backtest.queueModel (--set backtest.queueModel): must be one of conservative, probabilistic, optimistic, was "lucky"',
    ]);
    expect(configErrorLines(() => loadConfig(file, {}, set('backtest.queueModle=optimistic')))).toEqual([
      'backtest.queueModle (--set backtest.queueModle): unknown key; did you mean queueModel?',
    ]);
    expect(configErrorLines(() => loadConfig(file, {}, set('risk.maxOrderNotional.x=1')))).toEqual([
      'risk.maxOrderNotional (--set risk.maxOrderNotional.x): holds a value, not a mapping, so risk.maxOrderNotional.x cannot be set',
    ]);
    // with one enabled strategy a key that is no section is its parameter; with two it must name one
    await expect(loadCheckedConfig(file, {}, set('nosuch.size=1'))).rejects.toThrow(/^strategies\[0\]\.params\.nosuch \(--set nosuch\.size\): unknown key/);
    const two = tmp.write('two.yaml', TEXT.replace('enabled: false', 'enabled: true'));
    expect(configErrorLines(() => loadConfig(two, {}, set('nosuch.size=1')))).toEqual([
      'nosuch.size (--set nosuch.size): not a config section (mode, name, venue, account, data, strategies, risk, execution, logging, store, paper, backtest) nor a strategy id; name the strategy first (one of mm, off), e.g. mm.nosuch.size',
    ]);
    // a strategy parameter is checked by the strategy's own schema, as in the file
    await expect(loadCheckedConfig(file, {}, set('mm.size=-1'))).rejects.toThrow(/^strategies\[0\]\.params\.size \(--set mm\.size\): .*, was -1$/);
    // a key the flag did not touch still names its line
    const bad = tmp.write('bad.yaml', TEXT.replace('maxOrderNotional: 100', 'maxOrderNotional: -1'));
    expect(configErrorLines(() => loadConfig(bad, {}, set('backtest.queueModel=optimistic')))).toEqual([
      `risk.maxOrderNotional (${bad}:${lineOf(TEXT, 'maxOrderNotional')}): must be > 0, was -1`,
    ]);
  });

  it('reads values as YAML does, numbers kept exact', () => {
    expect(parseSet('a.b=5')).toEqual({ flag: '--set', key: 'a.b', value: 5 });
    expect(parseSet('a.b=[1, 2]').value).toEqual([1, 2]);
    expect(parseSet('a.b=').value).toBe(null);
    expect(parseSet('a.b=x=y').value).toBe('x=y');
    expect(parseSet('t=71321045679252212594626385532706912750332728571942532289631379312455583992563').value).toBe(
      '71321045679252212594626385532706912750332728571942532289631379312455583992563',
    );
    expect(() => parseSet('novalue')).toThrow(/expected <key>=<value>/);
    expect(() => parseSet('a b=1')).toThrow(/is not a key path/);
  });
});
