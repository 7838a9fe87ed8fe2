import type { CommandResult } from '../engine/commands.ts';
import type { ControlActions } from './control-source.ts';
import type { ControlState } from './control-state.ts';

/** How long POST /api/flatten waits for the flatten's verified end before answering without it, ms. */
export const FLATTEN_ANSWER_WAIT_MS = 60_000;

/** A read route: a slice of the run's state. */
export interface ReadRoute {
  readonly path: string;
  readonly summary: string;
  readonly read: (state: ControlState) => unknown;
}

/** The read routes (GET, bearer token), each a part of `/api/state`. */
export const READ_ROUTES: readonly ReadRoute[] = [
  { path: '/api/state', summary: 'Everything below in one answer (what the dashboard draws)', read: (s) => s },
  { path: '/api/health', summary: 'Health and trading permission with their reasons, and the halts on', read: (s) => ({ health: s.health, halts: s.halts }) },
  { path: '/api/positions', summary: "Each strategy's open positions (size, average price, realized PnL)", read: (s) => s.positions },
  { path: '/api/orders', summary: 'Our open orders', read: (s) => s.openOrders },
  { path: '/api/fills', summary: 'The newest fills, newest first', read: (s) => s.fills },
  { path: '/api/pnl', summary: 'The account figures and the PnL over time', read: (s) => ({ account: s.account, pnl: s.pnl }) },
  { path: '/api/rewards', summary: 'Our estimated liquidity rewards over time, USDC (a store: its latest estimate)', read: (s) => s.rewards },
  { path: '/api/rate-budget', summary: "The venue's rate budget in use, by window, and the routes paused after a 429 (null: not known)", read: (s) => s.rateBudget },
  { path: '/api/strategies', summary: "Each strategy's state, params, updatable keys and figures", read: (s) => s.strategies },
  { path: '/api/denials', summary: 'Orders denied before the venue, by deny code', read: (s) => s.denials },
  { path: '/api/logs', summary: 'The newest log lines', read: (s) => s.logs },
];

/** An action's answer: the command's result (its `ok`, `message` and what it did), and the HTTP status. */
export interface ActionAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** A control action (POST, bearer token): what it does, its body's fields, and how it runs. */
export interface ActionRoute {
  /** With `{id}` for a strategy's id. */
  readonly path: string;
  readonly summary: string;
  /** JSON Schema of the body's fields (all optional but where `required`). */
  readonly body: { readonly properties: Readonly<Record<string, unknown>>; readonly required?: readonly string[] };
  readonly run: (actions: ControlActions, body: Readonly<Record<string, unknown>>, id: string | undefined) => ActionAnswer | Promise<ActionAnswer>;
}

/** 200 when done, 409 when the engine refused (nothing changed); 422 for a refusal of the input itself. */
function answer(result: CommandResult, refusedStatus = 409): ActionAnswer {
  return { status: result.ok ? 200 : refusedStatus, body: result };
}

function optionalString(body: Readonly<Record<string, unknown>>, key: string): string | undefined | { error: string } {
  const v = body[key];
  if (v === undefined) return undefined;
  return typeof v === 'string' && v.length <= 500 ? v : { error: `${key}: must be a string of at most 500 characters` };
}

/** A 400 naming the body's field that was wrong. */
function badField(message: string): ActionAnswer {
  return { status: 400, body: { ok: false, message } };
}

export const ACTION_ROUTES: readonly ActionRoute[] = [
  {
    path: '/api/halt',
    summary: 'Raises the manual halt: new orders denied, resting orders cancelled (unless execution.cancelOnHalt is false), strategies told',
    body: { properties: { reason: { type: 'string', maxLength: 500 } } },
    run: (actions, body) => {
      const reason = optionalString(body, 'reason');
      if (typeof reason === 'object') return badField(reason.error);
      return answer(actions.command({ type: 'halt', name: 'manual', reason: reason === undefined ? 'control API' : `control API: ${reason}` }));
    },
  },
  {
    path: '/api/resume',
    summary: 'Lifts the manual halt (other halts stay on; a latched one refuses)',
    body: { properties: {} },
    run: (actions) => answer(actions.command({ type: 'resume', name: 'manual' })),
  },
  {
    path: '/api/cancel-all',
    summary: "Cancels every open order of ours (one strategy's with strategyId); trading goes on",
    body: { properties: { strategyId: { type: 'string' } } },
    run: (actions, body) => {
      const strategyId = optionalString(body, 'strategyId');
      if (typeof strategyId === 'object') return badField(strategyId.error);
      return answer(actions.command(strategyId === undefined ? { type: 'cancelAll' } : { type: 'cancelAll', strategyId }));
    },
  },
  {
    path: '/api/flatten',
    summary:
      'Halts (manual), cancels our orders, SELLs every position with fill-and-kill limit orders no lower than bandCents (default 5) under the best bid, then verifies none is left; answers both steps (waits up to 60 s for the second)',
    body: { properties: { bandCents: { type: 'integer', minimum: 0, maximum: 99 } } },
    run: async (actions, body) => {
      const band = body['bandCents'];
      if (band !== undefined && typeof band !== 'number') return { status: 422, body: { ok: false, command: 'flatten', message: `bandCents: ${JSON.stringify(band)} is not a whole number of cents from 0 to 99` } };
      const { started, verified } = await actions.flatten(band, FLATTEN_ANSWER_WAIT_MS);
      if (!started.ok) return answer(started, 422);
      const ok = verified?.ok === true;
      const message = verified === undefined ? `${started.message}; not verified within ${FLATTEN_ANSWER_WAIT_MS / 1000} s (the journal will have its end)` : verified.message;
      return { status: ok ? 200 : 409, body: { ok, command: 'flatten', message, started, verified: verified ?? null } };
    },
  },
  {
    path: '/api/strategies/{id}/stop',
    summary: 'Stops one strategy (its onStop runs, then its open orders are cancelled); the others run on',
    body: { properties: {} },
    run: (actions, _body, id) => answer(actions.command({ type: 'stopStrategy', strategyId: id ?? '' })),
  },
  {
    path: '/api/strategies/{id}/start',
    summary: 'Starts a stopped (or faulted) strategy again with fresh state',
    body: { properties: {} },
    run: (actions, _body, id) => answer(actions.command({ type: 'startStrategy', strategyId: id ?? '' })),
  },
  {
    path: '/api/strategies/{id}/params',
    summary: "Sets keys of a running strategy's params (only its updatable ones), checked as the config's load checks them; the strategy hears ParamsUpdated",
    body: { properties: { params: { type: 'object', additionalProperties: true } }, required: ['params'] },
    run: (actions, body, id) => {
      const params = body['params'];
      if (typeof params !== 'object' || params === null || Array.isArray(params)) return { status: 422, body: { ok: false, command: 'updateParams', message: 'params: must be a mapping of keys to values' } };
      return answer(actions.command({ type: 'updateParams', strategyId: id ?? '', params: params as Record<string, unknown> }), 422);
    },
  },
];

/** The route of `path` among `routes` (a `{id}` segment takes one path segment), with that id. */
export function matchRoute<R extends { readonly path: string }>(routes: readonly R[], path: string): { route: R; id: string | undefined } | undefined {
  for (const route of routes) {
    const want = route.path.split('/');
    const got = path.split('/');
    if (want.length !== got.length) continue;
    let id: string | undefined;
    let ok = true;
    for (let i = 0; i < want.length && ok; i++) {
      if (want[i] === '{id}') {
        try {
          id = decodeURIComponent(got[i]!);
        } catch {
          ok = false;
        }
        ok &&= id !== undefined && id.length > 0;
      } else ok = want[i] === got[i];
    }
    if (ok) return { route, id };
  }
  return undefined;
}
