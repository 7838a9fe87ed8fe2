import { formatMicros, MICROS_PER_UNIT, tickDecimals, type Micros } from '../../core/fixed.ts';
import type { Side } from '../../core/types.ts';
import { OrderBuildError } from './order-build-error.ts';

/** Sizes are cut to 2 decimals: 10,000 micros. */
const SIZE_STEP: Micros = 10_000;

/** Maker and taker amounts of a limit order, integers of the venue's 6-decimal base unit. */
export interface OrderAmounts {
  readonly makerAmount: number;
  readonly takerAmount: number;
}

/**
 * Amounts of a limit order (PROTOCOL "Orders"). BUY: takerAmount = size cut to 2 decimals (shares
 * received), makerAmount = takerAmount x price (collateral paid). SELL: makerAmount = size cut to
 * 2 decimals, takerAmount = makerAmount x price. The product keeps at most (tick decimals + 2)
 * decimals, rounded down. For every tick in use the product is exact already, so the rounding
 * only ever bites for finer ticks.
 *
 * Both amounts are at most the size, so they are safe integers whenever the size is. Throws
 * OrderBuildError when the price is off the tick grid or outside [tick, 1 - tick], or when an
 * amount would be zero.
 */
export function computeOrderAmounts(side: Side, price: Micros, size: Micros, tick: Micros): OrderAmounts {
  if (side !== 'BUY' && side !== 'SELL') throw new OrderBuildError('side', `must be BUY or SELL, was ${String(side)}`);
  checkTick(tick);
  checkPrice(price, tick);
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new OrderBuildError('size', `must be a positive number of micros, was ${String(size)}`);
  }
  const sized = size - (size % SIZE_STEP);
  if (sized === 0) throw new OrderBuildError('size', `must be at least 0.01 after cutting to 2 decimals, was ${formatMicros(size)}`);

  const amountDecimals = Math.min(tickDecimals(tick) + 2, 6);
  // sized x price / 1e6, cut to amountDecimals: in hundredths of a share times micros of price,
  // the product has 8 decimals; one integer division brings it to the kept decimals.
  const hundredths = sized / SIZE_STEP;
  const unit = 10 ** (6 - amountDecimals);
  const divisor = 100 * unit;
  const product = hundredths * price;
  let derived: number;
  if (Number.isSafeInteger(product)) {
    derived = Math.floor(product / divisor) * unit;
  } else {
    derived = Number((BigInt(hundredths) * BigInt(price)) / BigInt(divisor)) * unit;
  }
  if (derived === 0) {
    throw new OrderBuildError('size', `${formatMicros(sized)} at ${formatMicros(price)} gives a zero amount`);
  }
  return side === 'BUY' ? { makerAmount: derived, takerAmount: sized } : { makerAmount: sized, takerAmount: derived };
}

/** Throws unless `tick` is a positive number of micros below 0.5 that divides 1. */
export function checkTick(tick: Micros): void {
  if (!Number.isSafeInteger(tick) || tick <= 0 || tick >= MICROS_PER_UNIT / 2 || MICROS_PER_UNIT % tick !== 0) {
    throw new OrderBuildError('tick', `must divide 1 and be below 0.5, was ${String(tick)} micros`);
  }
}

/** Throws unless `price` is on the tick grid and within [tick, 1 - tick]. */
export function checkPrice(price: Micros, tick: Micros): void {
  if (!Number.isSafeInteger(price)) throw new OrderBuildError('price', `must be an integer of micros, was ${String(price)}`);
  if (price % tick !== 0) {
    throw new OrderBuildError('price', `must be a multiple of the tick ${formatMicros(tick)}, was ${formatMicros(price)}`);
  }
  if (price < tick || price > MICROS_PER_UNIT - tick) {
    throw new OrderBuildError(
      'price',
      `must be within [${formatMicros(tick)}, ${formatMicros(MICROS_PER_UNIT - tick)}], was ${formatMicros(price)}`,
    );
  }
}
