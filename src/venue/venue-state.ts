import { VenueRejectError } from '../core/errors.ts';
import type { VenueState } from '../core/types.ts';

/**
 * What an answer of an order route says about the venue's state (docs/venue-states.md), decoded
 * once here for both wire profiles:
 * - `425 Too Early`: the matching engine is restarting; nothing it was sent was taken.
 * - `503` whose body says cancel-only (`code: cancel_only_mode`, or the venue's text "Trading is
 *   currently cancel-only. ..."): cancels only.
 * - `503` whose body says post-only (`code: post_only_mode`, or a text naming post-only mode):
 *   cancels and post-only orders only.
 * - `503` "Trading is currently disabled ...": nothing is taken, cancels included; the engine
 *   treats it as `restarting` (stop sending, probe until it answers again).
 * `retryAfterMs` is the answer's `Retry-After` header, else its body's `retry_after_seconds` (the
 * transport reads both into the error). Any other answer (a plain 503, a 500) is not a state.
 */
export interface VenueRestriction {
  readonly state: Exclude<VenueState, 'open'>;
  readonly retryAfterMs: number | undefined;
  /** HTTP status of the answer (425 or 503). */
  readonly status: number;
  /** The venue's own words, for logs and the order's rejection reason. */
  readonly message: string;
}

/** Body `code`s of the restricted modes (the sandbox's, and the official clients' wire codes). */
const CODE_STATES: Readonly<Record<string, VenueRestriction['state']>> = Object.freeze({
  cancel_only_mode: 'cancelOnly',
  post_only_mode: 'postOnly',
  trading_disabled: 'restarting',
});

/** The restriction an error of an order route carries, or undefined when it is none. */
export function venueRestrictionOf(err: unknown): VenueRestriction | undefined {
  if (!(err instanceof VenueRejectError)) return undefined;
  if (err.status === 425) return { state: 'restarting', retryAfterMs: err.retryAfterMs, status: 425, message: err.venueMessage || 'the matching engine is restarting (425)' };
  if (err.status !== 503) return undefined;
  const state = stateOfBody(err.body, err.venueMessage);
  return state === undefined ? undefined : { state, retryAfterMs: err.retryAfterMs, status: 503, message: err.venueMessage };
}

/**
 * The restriction one refused item of a 200 batch answer names in its `errorMsg` (a venue may
 * refuse the non-post-only items of a batch one by one in post-only mode), or undefined.
 */
export function venueRestrictionOfItem(errorMsg: string): VenueRestriction | undefined {
  const state = stateOfText(errorMsg);
  return state === undefined ? undefined : { state, retryAfterMs: undefined, status: 200, message: errorMsg };
}

function stateOfBody(body: unknown, message: string): VenueRestriction['state'] | undefined {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const code = (body as Record<string, unknown>)['code'];
    if (typeof code === 'string' && Object.hasOwn(CODE_STATES, code)) return CODE_STATES[code];
  }
  return stateOfText(message);
}

function stateOfText(text: string): VenueRestriction['state'] | undefined {
  const t = text.toLowerCase();
  if (t.includes('cancel-only') || t.includes('cancel only')) return 'cancelOnly';
  if (t.includes('post-only mode') || t.includes('currently post-only') || t.includes('post_only_mode')) return 'postOnly';
  if (t.includes('trading is currently disabled')) return 'restarting';
  return undefined;
}
