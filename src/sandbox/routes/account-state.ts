import type { FastifyInstance } from 'fastify';
import { MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import type { TokenId } from '../../core/types.ts';
import { midPrice } from '../../core/book.ts';
import { isAddress, toChecksumAddress } from '../../venue/signing/address.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest } from '../http-error.ts';
import { analyticsAsset } from '../profile.ts';
import { LIQUIDITY_ADDRESS } from '../trading/sandbox-engine.ts';
import { authenticateL2 } from '../trading/auth.ts';
import { isoTime } from '../world/ids.ts';
import { boolOf, checkedQuery, intOf, listOf, numberOf, slice, sortBy, stringOf } from './query.ts';

/**
 * The account's state as the venue serves it (docs/protocol-additions.md), over the sandbox's
 * ledger (the funds and tokens every order is admitted against):
 * - `GET /balance-allowance` (trading group, L2): `{balance, allowances}`, balance in base units
 *   (6 decimals) as a digit string. COLLATERAL: the wallet's collateral, free plus what its
 *   resting BUY orders promise (the venue reports the wallet's funds; it is the client that
 *   counts what its orders reserve). CONDITIONAL (`token_id` required): the wallet's tokens of
 *   that id, free plus reserved. The wallet is the caller's own, by `signature_type`: 0 (the
 *   default) the key's address, 1 its proxy, 2 its safe, 3 its deposit wallet
 *   (trading/wallets.ts); never another key's wallet. Allowances are unlimited on both exchanges, as after the venue's approvals.
 * - `GET /positions?user=` (analytics group, no auth): the wallet's tokens held in the ledger
 *   (and the generated world's holdings of a world wallet), in the analytics shape: numbers,
 *   `asset` a token id in profile `polymarket`, `<condition_id>:<outcome_index>` otherwise.
 */

/** The maximum uint256, as the venue answers an unlimited approval. */
const UNLIMITED = (2n ** 256n - 1n).toString();
const DEFAULT_SIZE_THRESHOLD = 1;
const DEFAULT_LIMIT = 100;

interface HeldPosition {
  readonly tokenId: TokenId;
  readonly size: Micros;
  readonly avgPrice: Micros;
}

export function registerBalanceAllowanceRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/balance-allowance', { config: { routeId: 'getBalanceAllowance' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    const query = checkedQuery('getBalanceAllowance', request);
    const signatureType = intOf(query, 'signature_type', 0);
    // only the caller's own wallets: the key itself (0), its proxy (1), safe (2) or deposit wallet (3)
    const wallet = ctx.wallets.walletFor(caller.address, signatureType);
    if (wallet === undefined) throw badRequest(`getBalanceAllowance: 'signature_type' must be 0, 1, 2 or 3, was ${signatureType}`);
    const ledger = ctx.engine.ledger;
    let balance: Micros;
    if (query['asset_type'] === 'CONDITIONAL') {
      const tokenId = stringOf(query, 'token_id');
      if (tokenId === undefined) throw badRequest("getBalanceAllowance: 'token_id' is required when asset_type is 'CONDITIONAL'");
      balance = ledger.position(wallet, tokenId);
    } else if (ledger.has(wallet)) {
      const account = ledger.account(wallet);
      balance = account.collateral + account.collateralReserved;
    } else {
      // an account opens with the starting collateral on first use
      balance = ledger.startingCollateral;
    }
    const { standard, negRisk } = ctx.trading.exchanges;
    return { balance: String(balance), allowances: { [standard]: UNLIMITED, [negRisk]: UNLIMITED } };
  });
}

export function registerPositionsRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/positions', { config: { routeId: 'getPositions' } }, (request) => {
    const query = checkedQuery('getPositions', request);
    const user = query['user'] as string;
    const threshold = Math.round(numberOf(query, 'sizeThreshold', DEFAULT_SIZE_THRESHOLD) * MICROS_PER_UNIT);
    const markets = listOf(query, 'market')?.map((m) => m.toLowerCase());
    const title = stringOf(query, 'title')?.toLowerCase();
    const redeemable = boolOf(query, 'redeemable', false);
    const mergeable = boolOf(query, 'mergeable', false);
    const rows = heldBy(ctx, user)
      .map((p) => positionRow(ctx, user, p))
      .filter((r): r is PositionRow => r !== undefined)
      .filter(
        (r) =>
          r.size * MICROS_PER_UNIT >= threshold &&
          (!markets || markets.includes(r.conditionId)) &&
          (title === undefined || r.title.toLowerCase().includes(title)) &&
          (!redeemable || r.redeemable) &&
          (!mergeable || r.mergeable),
      );
    const key = SORT[stringOf(query, 'sortBy') ?? 'TOKENS'] ?? SORT['TOKENS']!;
    const sorted = sortBy(rows, key, stringOf(query, 'sortDirection') === 'ASC');
    return slice(sorted, intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_LIMIT));
  });
}

type PositionRow = NonNullable<ReturnType<typeof positionRow>>;

const SORT: Readonly<Record<string, (r: PositionRow) => number | string>> = {
  TOKENS: (r) => r.size,
  CURRENT: (r) => r.currentValue,
  INITIAL: (r) => r.initialValue,
  CASHPNL: (r) => r.cashPnl,
  PERCENTPNL: (r) => r.percentPnl,
  TITLE: (r) => r.title,
  RESOLVING: (r) => r.endDate,
  PRICE: (r) => r.curPrice,
  AVGPRICE: (r) => r.avgPrice,
};

/** Tokens `user` holds: the ledger's (trading here) and, for a world wallet, its generated holdings. */
function heldBy(ctx: SandboxContext, user: string): HeldPosition[] {
  const out: HeldPosition[] = [];
  const wallet = ctx.world.wallet(user);
  if (wallet) for (const h of ctx.world.holdingsOf(wallet)) out.push({ tokenId: h.token.tokenId, size: h.size, avgPrice: h.avgPrice });
  if (!isAddress(user)) return out;
  const address = toChecksumAddress(user);
  const ledger = ctx.engine.ledger;
  if (address === LIQUIDITY_ADDRESS || !ledger.has(address)) return out;
  for (const t of ledger.balance(address).tokens) {
    const size = t.balance + t.reserved;
    if (size <= 0) continue;
    const token = ctx.world.token(t.tokenId);
    const holding = token ? ctx.activity.holdersOf(token).find((h) => h.wallet.address.toLowerCase() === address.toLowerCase()) : undefined;
    out.push({ tokenId: t.tokenId, size, avgPrice: holding?.avgPrice ?? 0 });
  }
  return out;
}

function positionRow(ctx: SandboxContext, user: string, p: HeldPosition) {
  const token = ctx.world.token(p.tokenId);
  if (token === undefined) return undefined;
  const market = token.market;
  const quote = ctx.engine.quote(p.tokenId);
  const cur = midPrice(quote.bestBid, quote.bestAsk) ?? quote.lastTradePrice ?? p.avgPrice;
  const initialValue = (p.size * p.avgPrice) / MICROS_PER_UNIT ** 2;
  const currentValue = (p.size * cur) / MICROS_PER_UNIT ** 2;
  const cashPnl = currentValue - initialValue;
  const opposite = token.complement();
  return {
    proxyWallet: isAddress(user) ? toChecksumAddress(user) : user,
    asset: analyticsAsset(ctx.profile, token),
    conditionId: market.conditionId,
    size: p.size / MICROS_PER_UNIT,
    avgPrice: p.avgPrice / MICROS_PER_UNIT,
    initialValue,
    currentValue,
    cashPnl,
    percentPnl: initialValue === 0 ? 0 : Math.round((cashPnl / initialValue) * 1e6) / 1e4,
    totalBought: p.size / MICROS_PER_UNIT,
    realizedPnl: 0,
    percentRealizedPnl: 0,
    curPrice: cur / MICROS_PER_UNIT,
    redeemable: false,
    mergeable: false,
    title: market.question,
    slug: market.slug,
    icon: market.icon,
    eventSlug: market.event.slug,
    outcome: token.outcome,
    outcomeIndex: token.outcomeIndex,
    oppositeOutcome: opposite.outcome,
    oppositeAsset: analyticsAsset(ctx.profile, opposite),
    endDate: isoTime(market.endDate),
    negativeRisk: market.negRisk,
  };
}
