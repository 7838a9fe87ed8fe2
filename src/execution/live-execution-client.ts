import { defer, from, of, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { ConfigError, ParameterError } from '../core/errors.ts';
import type { Micros } from '../core/fixed.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import type { OrderRequest } from '../core/intents.ts';
import { cancelAll } from '../venue/actions/cancel-all.ts';
import { cancelMarketOrders } from '../venue/actions/cancel-market-orders.ts';
import { cancelOrder } from '../venue/actions/cancel-order.ts';
import { cancelOrders, MAX_CANCEL_IDS } from '../venue/actions/cancel-orders.ts';
import { getAccountOrder } from '../venue/actions/get-account-order.ts';
import { iterateAccountOrders } from '../venue/actions/iterate-account-orders.ts';
import { postHeartbeatV1 } from '../venue/actions/post-heartbeat-v1.ts';
import { postOrders } from '../venue/actions/post-orders.ts';
import { MAX_ORDERS_PER_BATCH } from '../venue/endpoints.ts';
import { withL2Auth } from '../venue/auth/with-l2-auth.ts';
import type { VenueClient } from '../venue/client.ts';
import type { AccountOrder, CancelResult } from '../venue/domain/account.ts';
import type { VenueLogger } from '../venue/logger.ts';
import { decodeClientOrderId } from '../venue/signing/client-order-id.ts';
import type { ApiCredentials } from '../venue/signing/l2-auth.ts';
import type { OrderParams } from '../venue/signing/order-builder.ts';
import type { OrderSigner, SignedOrder } from '../venue/signing/order-signer.ts';
import { randomSaltSource, type SaltSource } from '../venue/signing/salt.ts';
import type { CancelOutcome, ExecutionClient, FillsSnapshot, PreparedOrder, SubmitResult, VenueFill, VenueOrderState, VenueOrderUpdate } from './execution-client.ts';
import { FillsPoller, type FillsPollerCounters } from './live/fills-poller.ts';
import { UserChannelFills, type ReceivedUserMessage, type UserChannelCounters } from './live/user-channel-fills.ts';
import { isLivePayload, UNBUILT_PREFIX, type LivePayload } from './live/live-payload.ts';

/** The market rules order building needs, from the newest book or market data. */
export interface OrderMarketRules {
  readonly conditionId: ConditionId;
  /** The tick to price on (the newest book's). */
  readonly tickSize: Micros;
  /** Selects the neg-risk exchange as the verifying contract. */
  readonly negRisk: boolean;
}

/** Rules of a token's market; undefined when unknown (the order is then not built). */
export type MarketRulesLookup = (tokenId: TokenId) => OrderMarketRules | undefined | Promise<OrderMarketRules | undefined>;

export interface LiveExecutionOptions {
  /** The venue client; L2 authentication is added here with `credentials`. */
  readonly venue: VenueClient;
  readonly credentials: ApiCredentials;
  /** Signs orders; its signer address is the `*_ADDRESS` of L2 requests. */
  readonly signer: OrderSigner;
  readonly markets: MarketRulesLookup;
  /** Order salts. Default: the OS CSPRNG. */
  readonly salts?: SaltSource;
  readonly fills?: {
    readonly pollIntervalMs?: number;
    readonly marginMs?: number;
    readonly sinceMs?: number;
    readonly minBudget?: number;
  };
  /**
   * The venue's user channel as the source of fills and venue cancels (live/user-channel-fills.ts),
   * polling kept as its fallback and gap filler; absent: fills are polled only.
   */
  readonly userChannel?: {
    /** `ws://` or `wss://` URL of the channel. */
    readonly url: string;
    /** While the channel is trusted, poll our trades this often all the same; 0: never. */
    readonly auditPollMs: number;
    /** Condition ids; empty or absent: every market of the account. */
    readonly markets?: readonly ConditionId[];
  };
  readonly logger?: VenueLogger;
  /** Default 'live'. */
  readonly kind?: string;
}

export interface LiveExecutionCounters {
  /** HTTP attempts of the venue client (all routes). */
  readonly httpAttempts: number;
  /** 429 answers seen by the venue client. */
  readonly http429: number;
  readonly fillPolls: FillsPollerCounters;
  /** Present when the user channel is on. */
  readonly userChannel?: UserChannelCounters;
}

/**
 * The live execution edge: orders are built and signed here (EIP-712, client order id in the
 * order's `metadata`, salt and timestamp from the injected sources), posted in batches with L2
 * authentication, cancelled and reconciled through the venue's account routes; fills are polled
 * from `GET /data/trades`. Every call returns a cold Observable that emits once.
 *
 * An order that cannot be built (off tick, no market rules) is not sent: `prepare` gives it an
 * id starting `unbuilt:` and `submit` answers it as failed, so one bad order never costs its
 * batch. A post whose outcome is unknown errors with OutcomeUnknownError carrying the hashes.
 */
export class LiveExecutionClient implements ExecutionClient {
  readonly kind: string;
  readonly fills$: Observable<VenueFill>;
  readonly fillsSnapshot$: Observable<FillsSnapshot>;
  readonly orderUpdates$?: Observable<VenueOrderUpdate>;
  /** Every user-channel message as received (none when the channel is off), for the run's journal. */
  readonly userMessages$?: Observable<ReceivedUserMessage>;
  /** The L2-authenticated venue client every call goes through. */
  readonly venue: VenueClient;
  readonly #opts: LiveExecutionOptions;
  readonly #clock: Clock;
  readonly #salts: SaltSource;
  readonly #poller: FillsPoller;
  readonly #channel: UserChannelFills | undefined;
  /**
   * Aborted by close(): a request still waiting for rate budget then fails as never sent instead
   * of leaving after the run has stopped (and holding the process open until its window frees).
   */
  readonly #closed = new AbortController();

  constructor(options: LiveExecutionOptions) {
    this.#opts = options;
    this.kind = options.kind ?? 'live';
    this.#clock = options.venue.clock;
    this.#salts = options.salts ?? randomSaltSource();
    if (options.signer.profile !== options.venue.profile) {
      throw new ConfigError(`live execution: signer profile '${options.signer.profile}' differs from venue profile '${options.venue.profile}'`);
    }
    this.venue = withL2Auth(options.venue, { address: options.signer.signerAddress, credentials: options.credentials });
    this.#poller = new FillsPoller({
      client: this.venue,
      owner: { apiKey: options.credentials.apiKey, makerAddress: options.signer.maker },
      ...options.fills,
      logger: options.logger,
    });
    const owner = { apiKey: options.credentials.apiKey, makerAddress: options.signer.maker };
    const channel = options.userChannel;
    if (channel === undefined) {
      this.#channel = undefined;
      this.fills$ = this.#poller.fills$;
      this.fillsSnapshot$ = this.#poller.snapshots$;
      return;
    }
    this.#channel = new UserChannelFills({
      poller: this.#poller,
      owner,
      clock: this.#clock,
      socket: { url: channel.url, credentials: options.credentials, markets: channel.markets },
      pollIntervalMs: options.fills?.pollIntervalMs,
      auditPollMs: channel.auditPollMs,
      logger: options.logger,
    });
    this.fills$ = this.#channel.fills$;
    this.fillsSnapshot$ = this.#channel.snapshots$;
    this.orderUpdates$ = this.#channel.orderUpdates$;
    this.userMessages$ = this.#channel.messages$;
  }

  /** The user channel's source (undefined when it is off). */
  get userChannel(): UserChannelFills | undefined {
    return this.#channel;
  }

  get counters(): LiveExecutionCounters {
    const t = this.venue.transport.counters;
    const channel = this.#channel === undefined ? {} : { userChannel: { ...this.#channel.counters } };
    return { httpAttempts: t.attempts, http429: t.http429, fillPolls: { ...this.#poller.counters }, ...channel };
  }

  /** 429 answers seen so far (the engine's `http429` option). */
  http429(): number {
    return this.venue.transport.counters.http429;
  }

  prepare(requests: readonly OrderRequest[]): Observable<readonly PreparedOrder[]> {
    return defer(() => {
      // with a synchronous rules lookup (the engine's cache) the whole batch is built, hashed and
      // signed in this call: no promise hop between the book and the post
      const slots = requests.map((request) => this.#params(request));
      if (slots.some((s) => s instanceof Promise)) return from(Promise.all(slots.map((s) => Promise.resolve(s))).then((ready) => this.#build(requests, ready)));
      return of(this.#build(requests, slots as (OrderParams | string)[]));
    });
  }

  submit(orders: readonly PreparedOrder[]): Observable<readonly SubmitResult[]> {
    return defer(() => from(this.#submit(orders)));
  }

  cancel(orderIds: readonly string[]): Observable<CancelOutcome> {
    return defer(() => from(this.#cancel(orderIds)));
  }

  cancelAll(scope?: { conditionId?: ConditionId; tokenId?: TokenId }): Observable<CancelOutcome> {
    return defer(() => {
      const market = scope?.conditionId;
      const assetId = scope?.tokenId;
      const p = market !== undefined || assetId !== undefined ? cancelMarketOrders(this.venue, { market, assetId }, this.#call) : cancelAll(this.venue, this.#call);
      return from(p.then(toOutcome));
    });
  }

  openOrders(): Observable<readonly VenueOrderState[]> {
    return defer(() =>
      from(
        (async () => {
          const out: VenueOrderState[] = [];
          for await (const order of iterateAccountOrders(this.venue, {}, this.#call)) out.push(toVenueState(order));
          return out;
        })(),
      ),
    );
  }

  order(orderId: string): Observable<VenueOrderState | undefined> {
    return defer(() => {
      if (orderId.startsWith(UNBUILT_PREFIX)) return from(Promise.resolve(undefined));
      return from(getAccountOrder(this.venue, orderId, this.#call).then((o) => (o === undefined ? undefined : toVenueState(o))));
    });
  }

  heartbeat(previousId: string): Observable<string> {
    return defer(() => from(postHeartbeatV1(this.venue, previousId, this.#call)));
  }

  flushFills(): Observable<number> {
    return defer(() => from(this.#channel?.flush() ?? this.#poller.flush()));
  }

  close(): void {
    this.#closed.abort(new Error('the execution client is closed'));
    this.#channel?.close();
    this.#poller.close();
  }

  // ------------------------------------------------------------------------------- internals

  /** Every call's options: none leaves once the client is closed. */
  get #call(): { readonly signal: AbortSignal } {
    return { signal: this.#closed.signal };
  }

  /** Signs what can be built (all together, see OrderSigner.signMany); the rest become `unbuilt:`. */
  #build(requests: readonly OrderRequest[], slots: readonly (OrderParams | string)[]): PreparedOrder[] {
    const toSign: OrderParams[] = [];
    for (const slot of slots) if (typeof slot !== 'string') toSign.push(slot);
    const signed = this.#opts.signer.signMany(toSign);
    let next = 0;
    return requests.map((request, i): PreparedOrder => {
      const slot = slots[i] as OrderParams | string;
      const result = typeof slot === 'string' ? slot : (signed[next++] as SignedOrder | ParameterError);
      if (typeof result === 'string' || result instanceof ParameterError) {
        const payload: LivePayload = { kind: 'unbuilt', reason: typeof result === 'string' ? result : result.message };
        return { request, orderId: UNBUILT_PREFIX + request.clientOrderId, payload };
      }
      const payload: LivePayload = { kind: 'signed', signed: result };
      return { request, orderId: result.orderHash, payload };
    });
  }

  /** The signing parameters of one request, or why it cannot be built (a promise when the rules lookup is one). */
  #params(request: OrderRequest): OrderParams | string | Promise<OrderParams | string> {
    const rules = this.#opts.markets(request.tokenId);
    return rules instanceof Promise ? rules.then((r) => this.#paramsWith(request, r)) : this.#paramsWith(request, rules);
  }

  #paramsWith(request: OrderRequest, rules: OrderMarketRules | undefined): OrderParams | string {
    if (rules === undefined) return `order is invalid: no market rules for token ${request.tokenId}`;
    if (rules.conditionId !== request.conditionId && rules.conditionId.toLowerCase() !== request.conditionId.toLowerCase()) {
      return `order is invalid: token ${request.tokenId} belongs to market ${rules.conditionId}, not ${request.conditionId}`;
    }
    const orderType = request.orderType ?? 'GTC';
    return {
      tokenId: request.tokenId,
      conditionId: rules.conditionId,
      price: request.price,
      size: request.size,
      side: request.side,
      tick: rules.tickSize,
      negRisk: rules.negRisk,
      orderType,
      expiration: orderType === 'GTD' && request.expiresAt !== undefined ? Math.floor(request.expiresAt / 1000) : undefined,
      postOnly: request.postOnly,
      clientOrderId: request.clientOrderId,
      salt: this.#salts(),
      timestamp: this.#clock.now(),
    };
  }

  async #submit(orders: readonly PreparedOrder[]): Promise<SubmitResult[]> {
    if (orders.length > MAX_ORDERS_PER_BATCH) {
      throw new ParameterError('submit', 'orders', `must hold at most ${MAX_ORDERS_PER_BATCH} orders, was ${orders.length}`);
    }
    const signed: SignedOrder[] = [];
    const payloads = orders.map((order, i): LivePayload => {
      if (!isLivePayload(order.payload)) throw new ParameterError('submit', `orders[${i}].payload`, 'was not prepared by the live edge');
      if (order.payload.kind === 'signed') signed.push(order.payload.signed);
      return order.payload;
    });
    const results = signed.length === 0 ? [] : await postOrders(this.venue, { owner: this.#opts.credentials.apiKey, orders: signed }, this.#call);
    let next = 0;
    return orders.map((order, i): SubmitResult => {
      const payload = payloads[i] as LivePayload;
      if (payload.kind === 'unbuilt') return { ok: false, orderId: order.orderId, errorMsg: payload.reason };
      const result = results[next++];
      if (result === undefined) return { ok: false, orderId: order.orderId, errorMsg: 'no result for this item' };
      if (result.kind === 'failed') return { ok: false, orderId: order.orderId, errorMsg: result.errorMsg };
      return { ok: true, orderId: result.orderId, status: result.status, making: result.makingAmount, taking: result.takingAmount };
    });
  }

  async #cancel(orderIds: readonly string[]): Promise<CancelOutcome> {
    const canceled: string[] = [];
    const notCanceled: Record<string, string> = {};
    const ids: string[] = [];
    for (const id of new Set(orderIds)) {
      if (id.startsWith(UNBUILT_PREFIX)) notCanceled[id] = 'never sent';
      else if (id !== '') ids.push(id);
    }
    for (let start = 0; start < ids.length; start += MAX_CANCEL_IDS) {
      const chunk = ids.slice(start, start + MAX_CANCEL_IDS);
      const result: CancelResult = chunk.length === 1 ? await cancelOrder(this.venue, chunk[0] as string, this.#call) : await cancelOrders(this.venue, chunk, this.#call);
      canceled.push(...result.canceled);
      Object.assign(notCanceled, result.notCanceled);
    }
    return { canceled, notCanceled };
  }
}

function toOutcome(result: CancelResult): CancelOutcome {
  return { canceled: result.canceled, notCanceled: result.notCanceled };
}

/** An account order as the engine reconciles it; the client order id comes from `metadata`. */
export function toVenueState(order: AccountOrder): VenueOrderState {
  return {
    orderId: order.id,
    status: order.status,
    tokenId: order.assetId,
    conditionId: order.market,
    side: order.side,
    price: order.price,
    originalSize: order.originalSize,
    sizeMatched: order.sizeMatched,
    clientOrderId: order.metadata === undefined ? undefined : decodeClientOrderId(order.metadata),
  };
}
