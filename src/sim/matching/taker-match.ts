import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import { notional } from '../../core/money.ts';
import { restingBuyReserve } from '../admission.ts';
import type { BookSide } from './book-side.ts';
import type { Ledger } from '../ledger.ts';
import type { MarketBook } from './market-book.ts';
import type { OrderRecord } from './order-record.ts';
import type { MakerFill, Settlement, Trade } from '../types.ts';
import type { EventBatch } from './event-batch.ts';
import type { OrderRegistry } from './order-registry.ts';

/**
 * The matching loop: a taker order against the opposite side of its market's book, level by
 * level from the best, FIFO within a level, each fill at the resting (maker) order's price.
 * Settles both sides on the ledger (a TRANSFER, MINT or MERGE from the real tokens of both),
 * charges both fees, records one trade per level and queues the fill events.
 */
export class TakerMatch {
  readonly #ledger: Ledger;
  readonly #registry: OrderRegistry;
  readonly #events: EventBatch;
  readonly #tradeIdOf: (seq: number) => string;
  #tradeSeq = 0;
  /** What the taker gave and got in the last `match` (collateral or tokens, before fees). */
  making = 0;
  taking = 0;

  constructor(ledger: Ledger, registry: OrderRegistry, events: EventBatch, tradeIdOf: (seq: number) => string) {
    this.#ledger = ledger;
    this.#registry = registry;
    this.#events = events;
    this.#tradeIdOf = tradeIdOf;
  }

  /** Fills `taker` against the opposite side, level by level, FIFO within a level. */
  match(taker: OrderRecord, book: MarketBook<OrderRecord>, opposite: BookSide<OrderRecord>, now: number, trades: Trade[]): void {
    const isBid = taker.isBid;
    const limit = taker.yesPrice;
    const takerBuy = taker.side === 'BUY';
    const takerYes = taker.tokenIndex === 0;
    const tAccount = taker.account;
    const tHolding = taker.holding;
    const makerBps = book.makerFeeBps;
    const takerBps = book.takerFeeBps;
    const makerRate = book.fees.maker;
    const takerRate = book.fees.taker;
    const events = this.#events;
    const listening = events.listening;
    let making = 0;
    let taking = 0;
    let fees = 0;
    let setsDelta = 0;

    while (taker.remaining > 0) {
      const level = opposite.best();
      if (level === undefined) break;
      const x = level.price;
      if (isBid ? x > limit : x < limit) break;
      const takerPrice = takerYes ? x : MICROS_PER_UNIT - x;
      const tradeId = this.#tradeIdOf(++this.#tradeSeq);
      const fills: MakerFill[] = [];
      const makers: OrderRecord[] | undefined = listening ? [] : undefined;
      let levelFilled = 0;
      let takerFee = 0;

      let m = level.head;
      while (m !== null && taker.remaining > 0) {
        const next = m.next;
        const q = taker.remaining < m.remaining ? taker.remaining : m.remaining;

        // Maker side, at its own price.
        const mNotional = notional(m.price, q);
        const mFee = makerRate.fee(m.price, q);
        const mAccount = m.account;
        let settlement: Settlement;
        if (m.side === 'BUY') {
          const release = restingBuyReserve(m.price, m.remaining, makerRate) - restingBuyReserve(m.price, m.remaining - q, makerRate);
          mAccount.collateralReserved -= release;
          mAccount.collateral += release - mNotional - mFee;
          m.holding.free += q;
          settlement = takerBuy ? 'MINT' : 'TRANSFER';
        } else {
          m.holding.reserved -= q;
          mAccount.collateral += mNotional - mFee;
          settlement = takerBuy ? 'TRANSFER' : 'MERGE';
        }

        // Taker side, at the same price in its own token's terms.
        const tNotional = notional(takerPrice, q);
        const tFee = takerRate.fee(takerPrice, q);
        if (takerBuy) {
          tAccount.collateral -= tNotional + tFee;
          tHolding.free += q;
          making += tNotional;
          taking += q;
        } else {
          tHolding.free -= q;
          tAccount.collateral += tNotional - tFee;
          making += q;
          taking += tNotional;
        }
        if (settlement === 'MINT') setsDelta += q;
        else if (settlement === 'MERGE') setsDelta -= q;
        fees += mFee + tFee;
        takerFee += tFee;

        m.remaining -= q;
        m.sizeMatched += q;
        taker.remaining -= q;
        taker.sizeMatched += q;
        levelFilled += q;
        m.addTrade(tradeId);
        fills.push(
          Object.freeze({
            orderId: m.id,
            owner: m.owner,
            address: m.address,
            tokenId: m.tokenId,
            outcomeIndex: m.tokenIndex,
            side: m.side,
            price: m.price,
            matchedAmount: q,
            feeRateBps: makerBps,
            fee: mFee,
            settlement,
          }),
        );
        if (makers !== undefined) makers.push(m);
        if (m.remaining === 0) {
          level.unlink(m);
          m.status = 'MATCHED';
          this.#registry.dropLive(m);
        }
        m = next;
      }

      book.changeTotal(level, -levelFilled);
      events.touch(book, level);
      if (level.count === 0) opposite.drop(level);
      book.lastTradeYesPrice = x;
      taker.addTrade(tradeId);
      const trade: Trade = Object.freeze({
        id: tradeId,
        conditionId: book.conditionId,
        tokenId: taker.tokenId,
        outcomeIndex: taker.tokenIndex,
        side: taker.side,
        price: takerPrice,
        size: levelFilled,
        takerOrderId: taker.id,
        owner: taker.owner,
        address: taker.address,
        feeRateBps: takerBps,
        fee: takerFee,
        makerOrders: Object.freeze(fills),
        matchTime: now,
        status: 'MATCHED',
      });
      trades.push(trade);
      this.#registry.recordTrade(trade);
      if (makers !== undefined) this.#fillEvents(trade, taker, makers, now);
    }

    this.#ledger.feesCollected += fees;
    if (setsDelta !== 0) this.#ledger.adjustCompleteSets(book.conditionId, setsDelta);
    this.making = making;
    this.taking = taking;
  }

  /** TradeExecuted, then OrderFilled for each maker and for the taker. */
  #fillEvents(trade: Trade, taker: OrderRecord, makers: OrderRecord[], now: number): void {
    const events = this.#events;
    const tradeId = trade.id;
    events.push({ type: 'TradeExecuted', ts: now, trade });
    for (let i = 0; i < makers.length; i++) {
      const mk = makers[i] as OrderRecord;
      const f = trade.makerOrders[i] as MakerFill;
      events.push({
        type: 'OrderFilled',
        ts: now,
        orderId: mk.id,
        owner: mk.owner,
        role: 'MAKER',
        tradeId,
        tokenId: mk.tokenId,
        side: mk.side,
        price: mk.price,
        size: f.matchedAmount,
        fee: f.fee,
        sizeMatched: mk.sizeMatched,
        originalSize: mk.originalSize,
        status: mk.status,
      });
    }
    events.push({
      type: 'OrderFilled',
      ts: now,
      orderId: taker.id,
      owner: taker.owner,
      role: 'TAKER',
      tradeId,
      tokenId: taker.tokenId,
      side: taker.side,
      price: trade.price,
      size: trade.size,
      fee: trade.fee,
      sizeMatched: taker.sizeMatched,
      originalSize: taker.originalSize,
      status: taker.remaining === 0 ? 'MATCHED' : 'LIVE',
    });
  }
}
