import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import type { FieldLogger } from '../core/log.ts';
import { parseRedisUrl } from '../core/redis-url.ts';
import type { RunConfig, VenueRateBudget } from '../config/run-config.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';
import { SharedRateBudget } from '../venue/shared-rate-budget.ts';

/** A run's shared rate budget, with what the run does when it falls back and rejoins. */
export interface OpenedSharedBudget {
  readonly budget: SharedRateBudget;
  /** The engine to tell (health reason `rateBudgetFallback`) once it exists; a fallback before then is told at once. */
  attach(engine: TradingEngine): void;
  close(): void;
}

/**
 * The `venue.rateBudget` of a run: part 8's windows in Redis for every bot on the key. A fallback
 * (Redis unreachable) is one warn line and the health reason `rateBudgetFallback` until Redis
 * answers again (one info line). The scope, unless given, is the trading URL and the signer's
 * address (public), hashed: bots on one key on one venue share windows, others do not.
 */
export function openSharedBudget(config: RunConfig, section: VenueRateBudget, tradingUrl: string, clock: Clock, log: FieldLogger, windowScale: number): OpenedSharedBudget {
  const target = parseRedisUrl(section.redis, 'venue.rateBudget.redis');
  let password: string | undefined;
  if (section.passwordEnv !== undefined) {
    password = process.env[section.passwordEnv];
    if (password === undefined || password === '') throw new ConfigError(`venue.rateBudget.passwordEnv: the environment variable ${section.passwordEnv} is not set`);
  }
  const address = config.account?.address ?? 'anonymous';
  const scope = section.scope ?? createHash('sha256').update(`${tradingUrl}\n${address.toLowerCase()}`).digest('hex').slice(0, 16);
  let engine: TradingEngine | undefined;
  let fallback: string | undefined;
  const budget = new SharedRateBudget({
    clock,
    limits: { windowScale },
    redis: { ...target, ...(password !== undefined ? { password } : {}) },
    scope,
    bots: section.bots,
    onModeChange: (mode, detail) => {
      if (mode === 'fallback') {
        fallback = detail;
        log.warn(detail, { redis: target.display, bots: section.bots });
        engine?.healthReason({ kind: 'rateBudgetFallback', detail });
      } else {
        fallback = undefined;
        log.info(detail, { redis: target.display });
        engine?.clearHealthReason('rateBudgetFallback');
      }
    },
  });
  log.info('shared rate budget', { redis: target.display, bots: section.bots, scope });
  return {
    budget,
    attach(e) {
      engine = e;
      if (fallback !== undefined) e.healthReason({ kind: 'rateBudgetFallback', detail: fallback });
    },
    close: () => budget.close(),
  };
}
