import type { FillEvent, OrderStatus } from '../../src/strategy/api.ts';
import type { OrderRequest } from '../../src/core/intents.ts';

/** Orders and fills for store tests (no vitest import: the child process uses these too). */

export const TOKEN_A = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
export const TOKEN_B = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
export const MARKET = '0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1';

export function request(runId: string, seq: number, over: Partial<OrderRequest> = {}): OrderRequest {
  return {
    kind: 'place',
    tokenId: TOKEN_A,
    side: 'BUY',
    price: 520_000,
    size: 10_000_000,
    orderType: 'GTC',
    postOnly: true,
    tag: `bid-${seq}`,
    strategyId: 'mm',
    clientOrderId: `${runId}${seq.toString(16).padStart(24, '0')}`,
    conditionId: MARKET,
    createdAt: 1_700_000_000_000 + seq,
    ...over,
  };
}

export function order(req: OrderRequest, status: OrderStatus = 'PENDING_SUBMIT', orderId?: string, filled = 0) {
  return { request: req, status, orderId, filled };
}

export function fill(req: OrderRequest, tradeId: string, over: Partial<FillEvent> = {}): FillEvent {
  return {
    type: 'OrderFilled',
    clientOrderId: req.clientOrderId,
    orderId: `0x${'ab'.repeat(32)}`,
    tradeId,
    tokenId: req.tokenId,
    side: req.side,
    price: req.price,
    size: req.size,
    fee: 0,
    liquidity: 'MAKER',
    confirmed: false,
    tsEvent: 1_700_000_001_000,
    tsInit: 1_700_000_001_005,
    ...over,
  };
}
