import { closeSync, existsSync, openSync, statSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { Micros } from '../../core/fixed.ts';
import type { TokenId } from '../../core/types.ts';
import { WALLET_KIND } from '../../config/resolve-account.ts';
import type { LiveRunConfig, PaperRunConfig, RunConfig } from '../../config/run-config.ts';
import { readAccount } from '../../store/store-queries.ts';
import { openReadOnlyChecked } from '../../store/store-file.ts';
import { isProcessAlive, readLock } from '../../store/store-lock.ts';
import { ENDPOINTS, type RouteId } from '../../venue/endpoints.ts';
import { MAX_TOKENS_PER_BOOKS_REQUEST } from '../../venue/params.ts';
import { windowsFor } from '../../venue/rate-limits.ts';
import { signingBackend } from '../../venue/signing/ecdsa.ts';
import { createOrderSigner, type OrderSigner } from '../../venue/signing/order-signer.ts';
import { fail, ok, reasonOf, skip, warn, type DoctorLine } from './doctor-line.ts';

/** Orders the signing check signs to time the backend. */
export const SIGNING_SAMPLE = 200;

/**
 * The signing backend and its speed: the account's signer built as a run builds it (a bad
 * funder or signature type fails here), then SIGNING_SAMPLE orders signed one by one, timed in
 * CPU time so a busy machine does not read as a slow signer.
 */
export function checkSigning(config: LiveRunConfig): DoctorLine {
  const account = config.account;
  let signer;
  try {
    signer = createOrderSigner(
      { privateKey: account.privateKey, signerAddress: account.address, maker: account.funder, signatureType: account.signatureType },
      { profile: config.venue.profile, chainId: config.venue.chainId, exchanges: { standard: config.venue.contracts.exchange, negRisk: config.venue.contracts.negRiskExchange } },
    );
  } catch (err) {
    return fail('signing', reasonOf(err));
  }
  try {
    return timeSigning(signer, account);
  } catch (err) {
    return fail('signing', reasonOf(err));
  } finally {
    signer.close();
  }
}

function timeSigning(signer: OrderSigner, account: LiveRunConfig['account']): DoctorLine {
  const tokenId = '71321045679252212594626385532706912750332728571942532289631379312455583992563' as TokenId;
  const params = { tokenId, conditionId: ('0x' + '11'.repeat(32)), price: 500_000 as Micros, size: 10_000_000 as Micros, side: 'BUY' as const, tick: 10_000 as Micros, negRisk: false, orderType: 'GTC' as const, timestamp: Date.now() };
  signer.sign({ ...params, salt: 0 });
  const cpu = process.cpuUsage();
  for (let i = 1; i <= SIGNING_SAMPLE; i++) signer.sign({ ...params, salt: i });
  const used = process.cpuUsage(cpu);
  const perOrderUs = (used.user + used.system) / SIGNING_SAMPLE;
  const wallet = `${WALLET_KIND[account.signatureType]} (signatureType ${account.signatureType})`;
  return ok('signing', `${signingBackend.name}, ${(1e6 / perOrderUs).toFixed(0)} orders/s in one thread (${(perOrderUs / 1000).toFixed(3)} ms CPU each); wallet ${wallet}`, {
    backend: signingBackend.name,
    ordersPerSecond: Math.round(1e6 / perOrderUs),
    signatureType: account.signatureType,
  });
}

/**
 * The store: an existing file must open clean (integrity, schema), be ours (its account is this
 * key's) and free or held by a live run; a new one must be creatable where it is to go (a file
 * is made there and removed: a read-only mount, a full disk or a missing folder fail now, not
 * at the first fill).
 */
export function checkStore(config: RunConfig, embedded = false): DoctorLine {
  const path = config.store.path;
  // the embedded sandbox starts empty each time: a live store of it is read afterwards, never resumed
  const fresh = embedded && config.mode === 'live';
  if (path === undefined) {
    if (fresh) return ok('store', 'no store: the embedded sandbox starts empty each time, so a restart has nothing to resume (--store keeps a run for clobot status)');
    return config.mode === 'live'
      ? warn('store', 'no store (store.path unset): a restart knows nothing of the orders it sent; set store.path for crash-safe state')
      : skip('store', 'no store (store.path unset)');
  }
  if (existsSync(path)) {
    let opened;
    try {
      opened = openReadOnlyChecked(path);
    } catch (err) {
      return fail('store', reasonOf(err));
    }
    try {
      if (fresh) {
        const held = opened.db.prepare('SELECT (SELECT COUNT(*) FROM orders) + (SELECT COUNT(*) FROM fills) AS n').get() as { n: number };
        if (held.n > 0) return fail('store', `${path}: holds an earlier live run, and the embedded sandbox starts empty each time: a run with this store is refused; give a new one`);
      }
      const recorded = readAccount(opened.db);
      const address = config.mode === 'live' ? config.account.address : undefined;
      if (recorded !== undefined && address !== undefined && recorded.toLowerCase() !== address.toLowerCase()) {
        return fail('store', `${path}: this store trades for ${recorded}, not ${address} (the account of this config's key)`);
      }
      const holder = readLock(opened.db);
      const size = statSync(path).size;
      if (holder && holder.host === hostname() && isProcessAlive(holder.pid)) {
        return warn('store', `${path}: healthy, schema ${opened.schemaVersion}, in use by a run (pid ${holder.pid}): a second run on it is refused`, { schema: opened.schemaVersion, bytes: size });
      }
      return ok('store', `${path}: healthy, schema ${opened.schemaVersion}, ${size} bytes${recorded ? `, for ${recorded}` : ''}`, { schema: opened.schemaVersion, bytes: size });
    } finally {
      opened.db.close();
    }
  }
  const dir = dirname(path);
  if (!existsSync(dir)) return fail('store', `${path}: cannot be created: the folder ${dir} does not exist`);
  const probe = join(dir, `.clobot-doctor-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why = code === 'EROFS' ? 'the folder is on a read-only file system' : code === 'EACCES' || code === 'EPERM' ? 'no permission to write in the folder' : code === 'ENOSPC' ? 'no space left on the disk' : reasonOf(err);
    return fail('store', `${path}: cannot be created: ${why}`);
  }
  return ok('store', `${path}: new, its folder is writable`);
}

/** Share of a window above which the config's own demand is worth a warning. */
export const BUDGET_WARN_SHARE = 0.8;

/**
 * What the config asks of the venue's rate budget (interface part 8) against what it allows,
 * per 10 s window: the polls of `POST /books` and `POST /prices` for the markets' tokens, and
 * the polls of the followed wallets (`data.wallets`), and the orders risk lets through
 * (`risk.maxOrdersPerSecond`). Another bot on the same key shares
 * these budgets.
 */
export function checkRateBudget(config: LiveRunConfig | PaperRunConfig, tokens: number): DoctorLine {
  const scale = config.venue?.limits.windowScale ?? 1;
  const rows: { what: string; demand: number; limit: number }[] = [];
  const perWindow = (route: RouteId, perSecond: number) => {
    const window = windowsFor(route, ENDPOINTS[route].group, { windowScale: scale })[0];
    if (window) rows.push({ what: window.name, demand: perSecond * (window.windowMs / 1000), limit: window.limit });
  };
  const interval = config.data.pollIntervalMs;
  let polling: string;
  if (config.data.transport === 'ws') polling = 'books over the WS market channel';
  else if (interval === 'auto') polling = 'polls as fresh as the budget allows (auto)';
  else {
    const requests = Math.ceil(tokens / MAX_TOKENS_PER_BOOKS_REQUEST) * (1000 / interval);
    perWindow('getOrderBooks', requests);
    perWindow('getPrices', requests);
    polling = `polls ${tokens} token(s) every ${interval} ms`;
  }
  const wallets = config.data.wallets;
  // each followed wallet: one request a round (more only when it traded more than a page since the last)
  if (wallets !== undefined) perWindow(wallets.route === 'trades' ? 'getTrades' : 'getActivity', wallets.addresses.length * (1000 / wallets.pollMs));
  if (config.mode === 'live') perWindow('postOrders', config.risk.maxOrdersPerSecond);
  const worst = rows.reduce((a, r) => Math.max(a, r.demand / r.limit), 0);
  const detail = rows.map((r) => `${r.what} ${Math.round((100 * r.demand) / r.limit)}%`).join(', ');
  const text = `${polling}${detail ? `; at most ${detail} of the budget` : ''}`;
  const figures = { worstShare: Math.round(worst * 1000) / 1000 };
  if (worst > 1) return fail('rateBudget', `${text}: more than the venue allows, 429s are certain (raise data.pollIntervalMs or data.wallets.pollMs, or lower risk.maxOrdersPerSecond)`, figures);
  if (worst > BUDGET_WARN_SHARE) return warn('rateBudget', `${text}: little headroom (another bot on this key shares it)`, figures);
  return ok('rateBudget', text, figures);
}
