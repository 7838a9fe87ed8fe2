import type { Micros } from '../../core/fixed.ts';
import type { OrderType, Side } from '../../core/types.ts';

/**
 * Every order item the sandbox received over HTTP, accepted or not, in arrival order, for
 * `GET /admin/orders`. What could be read from the item is kept even when it was refused (a
 * malformed item keeps only what parsed). Fills and status of accepted orders are read from the
 * engine when the log is served.
 */
export interface OrderLogEntry {
  /** 1-based arrival number. */
  readonly seq: number;
  /** Venue time the item was received, epoch ms. */
  readonly receivedAt: number;
  readonly route: 'postOrder' | 'postOrders';
  /** API key the request was authenticated with. */
  readonly apiKey: string;
  /** The item's `owner` field, as sent. */
  owner: string | undefined;
  /** EIP-712 hash (the order id), when the order could be hashed. */
  hash: string | undefined;
  maker: string | undefined;
  signer: string | undefined;
  signatureType: number | undefined;
  metadata: string | undefined;
  tokenId: string | undefined;
  conditionId: string | undefined;
  side: Side | undefined;
  price: Micros | undefined;
  size: Micros | undefined;
  orderType: OrderType | undefined;
  postOnly: boolean;
  /** Unix seconds for GTD, else undefined. */
  expiration: number | undefined;
  /** True when the engine took the order (it rested or filled). */
  accepted: boolean;
  /** '' when accepted. */
  errorMsg: string;
  /** The status answered: `live`, `matched`, or '' when refused. */
  answeredStatus: string;
}

export class OrderLog {
  readonly #entries: OrderLogEntry[] = [];

  start(route: OrderLogEntry['route'], apiKey: string, receivedAt: number): OrderLogEntry {
    const entry: OrderLogEntry = {
      seq: this.#entries.length + 1,
      receivedAt,
      route,
      apiKey,
      owner: undefined,
      hash: undefined,
      maker: undefined,
      signer: undefined,
      signatureType: undefined,
      metadata: undefined,
      tokenId: undefined,
      conditionId: undefined,
      side: undefined,
      price: undefined,
      size: undefined,
      orderType: undefined,
      postOnly: false,
      expiration: undefined,
      accepted: false,
      errorMsg: '',
      answeredStatus: '',
    };
    this.#entries.push(entry);
    return entry;
  }

  entries(): readonly OrderLogEntry[] {
    return this.#entries;
  }
}
