import type { FastifyInstance } from 'fastify';
import { formatMicros, parseMicros } from '../../core/fixed.ts';
import { decodeClientOrderId } from '../../venue/signing/client-order-id.ts';
import { isAddress, toChecksumAddress } from '../../venue/signing/address.ts';
import type { SandboxContext } from '../context.ts';
import { parseFaultPatch } from '../faults.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import type { OrderLogEntry } from '../trading/order-log.ts';

/**
 * Loopback-only admin routes: read and set the fault knobs, read and reset the request counts,
 * the trading settings (`/admin/trading`), every order item received (`/admin/orders`, filters `owner` = API key, `maker`, `hash`) and an
 * address's balances (`/admin/balances?address=`), the wallets each signing key controls
 * (`/admin/wallets`, `?owner=` one key's, registering it), and a market's tick change
 * (`POST /admin/tick-size {"conditionId", "tickSize": "0.01"}`: resting orders stay, new orders
 * are checked against the new tick, the books show it; the metadata routes keep the listed tick),
 * a staged restart (`POST /admin/restart {"restartSeconds", "postOnlySeconds"}`: from now, that
 * long of 425 on the order routes, then that long of post-only mode; `GET /admin/restart` says
 * where it is).
 * They pass no fault, limit or count, so a test can always turn a storm off. Amounts are decimal
 * strings. Who may call them (loopback caller and Host, JSON posts, the optional admin token):
 * admin-guard.ts, checked by the pipeline.
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const admin = { config: { admin: true } };

  app.get('/admin/faults', admin, () => ctx.faults.settings);

  app.post('/admin/faults', admin, (request) => {
    const body = request.body ?? {};
    return ctx.faults.set(parseFaultPatch(body));
  });

  app.post('/admin/restart', admin, (request) => {
    const body = request.body;
    const b = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const seconds = (key: string): number => {
      const value = b[key] ?? 0;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 600) throw badRequest(`admin/restart: ${key} must be a number of seconds from 0 to 600, was ${JSON.stringify(value)}`);
      return Math.round(value * 1000);
    };
    const restart = ctx.faults.stageRestart(seconds('restartSeconds'), seconds('postOnlySeconds'));
    return { ...restart, phase: ctx.faults.restartPhase() ?? null };
  });

  app.get('/admin/restart', admin, () => ({ restart: ctx.faults.settings.restart, phase: ctx.faults.restartPhase() ?? null }));

  app.get('/admin/stats', admin, () => ctx.stats.snapshot());

  app.post('/admin/stats/reset', admin, () => {
    ctx.stats.reset();
    return ctx.stats.snapshot();
  });

  app.get('/admin/trading', admin, () => ({
    profile: ctx.profile,
    startingBalance: formatMicros(ctx.engine.ledger.startingCollateral),
    authWindowMs: ctx.trading.authWindowMs,
    heartbeatTimeoutMs: ctx.trading.heartbeatTimeoutMs,
    chainId: ctx.trading.chainId,
    exchanges: ctx.trading.exchanges,
    apiKeys: ctx.apiKeys.all().length,
    ordersReceived: ctx.orderLog.entries().length,
  }));

  // every signing key the sandbox knows and the wallets it controls (trading/wallets.ts)
  app.get('/admin/wallets', admin, (request) => {
    const owner = ((request.query ?? {}) as Record<string, string | undefined>)['owner'];
    if (owner !== undefined) {
      if (!isAddress(owner)) throw badRequest('admin/wallets: ?owner= must be a 0x address');
      return [ctx.wallets.open(owner)];
    }
    return ctx.wallets.all();
  });

  app.get('/admin/orders', admin, (request) => {
    const q = (request.query ?? {}) as Record<string, string | undefined>;
    const maker = q['maker']?.toLowerCase();
    const hash = q['hash']?.toLowerCase();
    return ctx.orderLog
      .entries()
      .filter((e) => (q['owner'] === undefined || e.apiKey === q['owner']) && (maker === undefined || e.maker?.toLowerCase() === maker) && (hash === undefined || e.hash === hash))
      .map((e) => adminOrder(ctx, e));
  });

  app.post('/admin/tick-size', admin, (request) => {
    const body = request.body;
    const b = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const conditionId = b['conditionId'];
    const tickText = b['tickSize'];
    if (typeof conditionId !== 'string' || conditionId === '') throw badRequest('admin/tick-size: conditionId must be a condition id string');
    if (typeof tickText !== 'string' && typeof tickText !== 'number') throw badRequest('admin/tick-size: tickSize must be a decimal string like "0.01"');
    const tickSize = parseMicros(String(tickText));
    if (Number.isNaN(tickSize)) throw badRequest(`admin/tick-size: tickSize must be a decimal with at most 6 decimals, was ${String(tickText)}`);
    const market = ctx.engine.market(conditionId.toLowerCase());
    if (market === undefined) throw new SandboxHttpError(404, `admin/tick-size: no market ${conditionId}`);
    // a ParameterError (tick out of range or off the lot) becomes a 400 naming the field
    ctx.engine.setTickSize(market.conditionId, tickSize, ctx.clock.now());
    return { conditionId: market.conditionId, tickSize: formatMicros(tickSize), previousTickSize: formatMicros(market.tickSize) };
  });

  app.get('/admin/balances', admin, (request) => {
    const address = ((request.query ?? {}) as Record<string, string | undefined>)['address'];
    if (address === undefined || !isAddress(address)) throw badRequest('admin/balances: ?address= must be a 0x address');
    const checksummed = toChecksumAddress(address);
    const ledger = ctx.engine.ledger;
    if (!ledger.has(checksummed)) {
      return { address: checksummed, opened: false, collateral: formatMicros(ledger.startingCollateral), collateralReserved: '0', tokens: [] };
    }
    const b = ledger.balance(checksummed);
    return {
      address: checksummed,
      opened: true,
      collateral: formatMicros(b.collateral),
      collateralReserved: formatMicros(b.collateralReserved),
      tokens: b.tokens
        .filter((t) => t.balance !== 0 || t.reserved !== 0)
        .map((t) => ({ tokenId: t.tokenId, balance: formatMicros(t.balance), reserved: formatMicros(t.reserved) })),
    };
  });
}

/** One log entry with the engine's current view of the order when it was taken. */
function adminOrder(ctx: SandboxContext, e: OrderLogEntry): Record<string, unknown> {
  const state = e.accepted && e.hash !== undefined ? ctx.engine.order(e.hash) : undefined;
  const opt = (m: number | undefined): string | null => (m === undefined ? null : formatMicros(m));
  return {
    seq: e.seq,
    receivedAt: e.receivedAt,
    route: e.route,
    apiKey: e.apiKey,
    owner: e.owner ?? null,
    hash: e.hash ?? null,
    maker: e.maker ?? null,
    signer: e.signer ?? null,
    signatureType: e.signatureType ?? null,
    metadata: e.metadata ?? null,
    clientOrderId: e.metadata === undefined ? null : (decodeClientOrderId(e.metadata) ?? null),
    tokenId: e.tokenId ?? null,
    conditionId: e.conditionId ?? null,
    side: e.side ?? null,
    price: opt(e.price),
    size: opt(e.size),
    orderType: e.orderType ?? null,
    postOnly: e.postOnly,
    expiration: e.expiration ?? null,
    accepted: e.accepted,
    errorMsg: e.errorMsg,
    answeredStatus: e.answeredStatus,
    status: state?.status ?? (e.accepted ? 'UNKNOWN' : 'REJECTED'),
    sizeMatched: state ? formatMicros(state.sizeMatched) : '0',
    openSize: state ? formatMicros(state.openSize) : '0',
    cancelReason: state?.cancelReason ?? null,
    tradeIds: state ? [...state.associateTrades] : [],
  };
}
