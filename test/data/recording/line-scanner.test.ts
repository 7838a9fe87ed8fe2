import { describe, expect, it } from 'vitest';
import { decodeRecordedEvent, headerTokens } from '../../../src/data/recording/decode-recorded.ts';
import { encodeEventLine } from '../../../src/data/recording/encode-line.ts';
import { scanEventLine, ScanTokenTable, type ScanTokenEntry } from '../../../src/data/recording/line-scanner.ts';
import { fixtureEvents } from './helpers.ts';

/** The scanner must take every book and trade line the writer makes, and agree with the generic path. */

const { header, events } = fixtureEvents();

/** The header's markets and the one that joins later (a reader learns it from its `market` event). */
const markets = [...header.markets, ...events.flatMap((e) => (e.type === 'marketAdded' ? [e.market] : []))];

function scanTokens(): ScanTokenTable {
  const out: ScanTokenEntry[] = [];
  for (const m of markets) for (const t of m.tokens) out.push({ tokenId: t.tokenId, conditionId: m.conditionId });
  return new ScanTokenTable(out);
}

/** Every token the events may name, as the generic decoder takes them. */
function allTokens(): Map<string, string> {
  return new Map(markets.flatMap((m) => m.tokens.map((t): [string, string] => [t.tokenId, t.tokenId])));
}

function scan(line: string, tokens = scanTokens()) {
  // the line sits inside a larger chunk, as in the reader
  const chunk = Buffer.from(`junk\n${line}\nmore`, 'utf8');
  return scanEventLine(chunk, 5, 5 + Buffer.byteLength(line), tokens);
}

describe('book and trade line scanner', () => {
  it('decodes every ASCII book and trade line the writer makes, exactly as JSON.parse + the generic decoder', () => {
    let scanned = 0;
    let trades = 0;
    for (const e of events) {
      if (e.type !== 'book' && e.type !== 'trade') continue;
      const line = encodeEventLine(e);
      const generic = decodeRecordedEvent(JSON.parse(line), allTokens());
      const fast = scan(line);
      if (e.type === 'trade') trades++;
      if (e.type === 'book' && /[^\x20-\x7e]/.test(e.book.hash)) {
        expect(fast).toBeUndefined(); // non-ASCII strings go the generic way
        continue;
      }
      expect(fast).toEqual(generic);
      expect(fast).toEqual(e);
      scanned++;
    }
    expect(scanned).toBeGreaterThan(5);
    expect(trades).toBeGreaterThan(0);
  });

  it('reads a trade line with its keys in any order and whitespace, as the generic path does', () => {
    for (const line of [
      '{"t":"trade","tsEvent":1,"tsInit":2,"tokenId":"1001","price":"0.1","size":"1.5","side":"SELL"}',
      '{ "side" : "BUY" , "size":"0", "price" :"+1" ,"tokenId":"1001","tsInit":2,"tsEvent":1,"t":"trade" }',
    ]) {
      const fast = scan(line);
      expect(fast?.type).toBe('trade');
      expect(fast).toEqual(decodeRecordedEvent(JSON.parse(line), headerTokens(header)));
    }
  });

  it('reads levels with whitespace anywhere and decimals at the edges of the rules, as the generic path does', () => {
    const line =
      '{ "t" : "book" , "tsEvent" : 1 , "tsInit" : 2 , "tokenId" : "1001" , "conditionId" : "0xedge" , "hash" : "h" ,' +
      ' "bids" : [ [ "0.5" , "1" ] ,\t[ "0.4000000" , "12.000001" ] ] , "asks" : [\r[ "0.51" , "+3" ] , [ "1" , "0.0" ] ] }';
    const generic = decodeRecordedEvent(JSON.parse(line), headerTokens(header));
    const fast = scan(line);
    expect(fast).toEqual(generic);
    if (fast?.type !== 'book') throw new Error('expected a book');
    expect(fast.book.bids).toEqual([
      { price: 500_000, size: 1_000_000 },
      { price: 400_000, size: 12_000_001 },
    ]);
    expect(fast.book.asks).toEqual([
      { price: 510_000, size: 3_000_000 },
      { price: 1_000_000, size: 0 },
    ]);
    // whitespace where the writer's spelling `["price","size"]` has none, one place at a time
    // (the scanner reads that spelling first and any other from the level's start)
    for (const level of ['["0.5" ,"1"]', '["0.5", "1"]', '["0.5","1" ]', '["0.5","1"] ', '[ "0.5","1"]', '["0.5","1"]']) {
      const spaced = `{"t":"book","tsEvent":1,"tsInit":2,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[${level},${level.replace('0.5', '0.4')}],"asks":[]}`;
      const got = scan(spaced);
      expect(got).toEqual(decodeRecordedEvent(JSON.parse(spaced), headerTokens(header)));
      expect(got?.type === 'book' && got.book.bids.map((l) => l.price)).toEqual([500_000, 400_000]);
    }
  });

  it.each([
    ['a level with three values', '[["0.5","1","2"]]'],
    ['a level with one value', '[["0.5"]]'],
    ['a missing comma between levels', '[["0.5","1"]["0.4","1"]]'],
    ['an empty decimal', '[["","1"]]'],
    ['a lone dot', '[[".","1"]]'],
    ['an unclosed list', '[["0.5","1"]'],
  ])('gives up on levels with %s', (_, levels) => {
    const line = `{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":${levels},"asks":[]}`;
    expect(scan(line)).toBeUndefined();
  });

  it('shares one hash string per token while the hash does not change', () => {
    const tokens = scanTokens();
    const e = events.find((x) => x.type === 'book')!;
    const a = scan(encodeEventLine(e), tokens);
    const b = scan(encodeEventLine(e), tokens);
    if (a?.type !== 'book' || b?.type !== 'book') throw new Error('expected books');
    expect(b.book.hash).toBe(a.book.hash);
    expect(b.book.tokenId).toBe(header.markets.flatMap((m) => m.tokens).find((t) => t.tokenId === e.book.tokenId)!.tokenId);
  });

  it.each([
    ['another event kind', '{"t":"tick","tsEvent":1,"tsInit":1,"tokenId":"1001","tickSize":"0.01"}'],
    ['a trade with a key of a book', '{"t":"trade","tsEvent":1,"tsInit":1,"tokenId":"1001","price":"0.1","size":"1","side":"BUY","hash":"h"}'],
    ['a book with a key of a trade', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[],"asks":[],"side":"BUY"}'],
    ['a trade without its side', '{"t":"trade","tsEvent":1,"tsInit":1,"tokenId":"1001","price":"0.1","size":"1"}'],
    ['a side in lower case', '{"t":"trade","tsEvent":1,"tsInit":1,"tokenId":"1001","price":"0.1","size":"1","side":"buy"}'],
    ['a negative trade price', '{"t":"trade","tsEvent":1,"tsInit":1,"tokenId":"1001","price":"-0.1","size":"1","side":"BUY"}'],
    ['a trade of an unknown token', '{"t":"trade","tsEvent":1,"tsInit":1,"tokenId":"999","price":"0.1","size":"1","side":"BUY"}'],
    ['an unknown key', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[],"asks":[],"extra":1}'],
    ['an escape in a string', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h\\u0041","bids":[],"asks":[]}'],
    ['a number for a price', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[[0.5,"1"]],"asks":[]}'],
    ['a negative size', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[["0.5","-1"]],"asks":[]}'],
    ['7 decimals', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[["0.5000001","1"]],"asks":[]}'],
    ['a fractional time', '{"t":"book","tsEvent":1.5,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[],"asks":[]}'],
    ['an unknown token', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"999","conditionId":"0xedge","hash":"h","bids":[],"asks":[]}'],
    ['another condition id', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xother","hash":"h","bids":[],"asks":[]}'],
    ['a missing field', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","bids":[],"asks":[]}'],
    ['trailing garbage', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[],"asks":[]} x'],
    ['a cut line', '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xedge","hash":"h","bids":[["0.5","1'],
  ])('gives up on %s (the generic path decides)', (_, line) => {
    expect(scan(line)).toBeUndefined();
  });

  it('reads a valid line with another condition id through the generic path only', () => {
    const line = '{"t":"book","tsEvent":1,"tsInit":1,"tokenId":"1001","conditionId":"0xother","hash":"h","bids":[],"asks":[]}';
    const e = decodeRecordedEvent(JSON.parse(line), headerTokens(header));
    expect(e.type === 'book' && e.book.conditionId).toBe('0xother');
  });

  it.each([
    ['after the token (matched in place)', '"tokenId":"1001","conditionId":"0xedge"', true],
    ['before the token', '"conditionId":"0xedge","tokenId":"1001"', true],
    ['a prefix of the right one', '"tokenId":"1001","conditionId":"0xedg"', false],
    ['an extension of the right one', '"tokenId":"1001","conditionId":"0xedgee"', false],
    ['unquoted', '"tokenId":"1001","conditionId":0', false],
    ['the right one, then another (the last counts)', '"tokenId":"1001","conditionId":"0xedge","conditionId":"0xother"', false],
    ['another, then the right one (the last counts)', '"tokenId":"1001","conditionId":"0xother","conditionId":"0xedge"', true],
    ['matched, then the token named again as another', '"tokenId":"1001","conditionId":"0xedge","tokenId":"1002"', false],
  ])('checks the condition id %s as the generic path does', (_, fields, scanned) => {
    const line = `{"t":"book","tsEvent":1,"tsInit":1,${fields},"hash":"h","bids":[["0.5","1"]],"asks":[]}`;
    const fast = scan(line);
    if (!scanned) {
      expect(fast).toBeUndefined();
      return;
    }
    expect(fast).toEqual(decodeRecordedEvent(JSON.parse(line), headerTokens(header)));
  });

  it('finds tokens by their bytes: each id, never a prefix or an extension of one', () => {
    const table = new ScanTokenTable(['1001', '10011', '0xab'].map((tokenId) => ({ tokenId, conditionId: 'c' })));
    const find = (text: string) => {
      const bytes = Buffer.from(`"${text}"`, 'latin1');
      return table.find(bytes, 1, bytes.length - 1)?.tokenId;
    };
    expect(find('1001')).toBe('1001');
    expect(find('10011')).toBe('10011');
    expect(find('0xab')).toBe('0xab');
    expect(find('100')).toBeUndefined();
    expect(find('100111')).toBeUndefined();
    expect(find('0xAB')).toBeUndefined();
    expect(find('')).toBeUndefined();
  });
});
