import type { CheckName, RiskCheck } from '../types.ts';
import { killSwitch } from './kill-switch.ts';
import { marketOpen } from './market-open.ts';
import { maxGrossExposure } from './max-gross-exposure.ts';
import { maxNotional } from './max-notional.ts';
import { maxOpenOrders } from './max-open-orders.ts';
import { maxPosition } from './max-position.ts';
import { minSize } from './min-size.ts';
import { negRiskExposure } from './neg-risk-exposure.ts';
import { orderRate } from './order-rate.ts';
import { priceBounds } from './price-bounds.ts';
import { selfCross } from './self-cross.ts';
import { staleBook } from './stale-book.ts';
import { strategyBudget } from './strategy-budget.ts';
import { tickGrid } from './tick-grid.ts';

/** Every check by its config name. */
export const CHECKS: Readonly<Record<CheckName, RiskCheck>> = Object.freeze({
  killSwitch,
  marketOpen,
  tickGrid,
  priceBounds,
  minSize,
  staleBook,
  orderRate,
  maxOpenOrders,
  selfCross,
  maxNotional,
  maxPosition,
  maxGrossExposure,
  negRiskExposure,
  strategyBudget,
});

export {
  killSwitch,
  marketOpen,
  maxGrossExposure,
  maxNotional,
  maxOpenOrders,
  maxPosition,
  minSize,
  negRiskExposure,
  orderRate,
  priceBounds,
  selfCross,
  staleBook,
  strategyBudget,
  tickGrid,
};
