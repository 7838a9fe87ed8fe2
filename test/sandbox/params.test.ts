import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParameterError } from '../../src/core/errors.ts';
import { ENDPOINTS, fillPath, type RouteId } from '../../src/venue/endpoints.ts';
import { ROUTE_RULES, checkQuery, type ParamRule } from '../../src/venue/params.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { call } from './helpers.ts';

/**
 * Every rule of part 4 (`ROUTE_RULES`, the table the client checks before sending) broken one
 * at a time against the sandbox: each answer is a 400 whose `error` is exactly the message
 * `checkQuery` gives, naming the parameter.
 */

/** Routes of the trading step (authenticated account data); the read-route sandbox does not serve them yet. */
const NOT_SERVED: readonly RouteId[] = ['getAccountTrades', 'getAccountOrders', 'getBalanceAllowance', 'getOrderScoring', 'getRewardPercentages'];

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 3, limits: { enabled: false } });
});
afterAll(async () => {
  await sb.close();
});

/** A query every rule of the route accepts, and the path parameters, from the sandbox's world. */
function validRequest(route: RouteId): { path: Record<string, string>; query: Record<string, string> } {
  const world = sb.world;
  const market = world.markets.find((m) => !m.closed && !m.negRisk)!;
  const token = market.tokens[0].tokenId;
  const user = world.closedPositions[0]!.wallet.address;
  const comment = world.comments.find((c) => c.replies.length > 0)!;
  const path = { slug: market.slug, id: route === 'getCommentReplies' ? comment.id : market.id, user_address: user, condition_id: market.conditionId };
  const required: Partial<Record<RouteId, Record<string, string>>> = {
    getClosedPositions: { user },
    getPositions: { user },
    getActivity: { user },
    getHolders: { market: market.conditionId },
    publicSearch: { q: 'will' },
    getOrderBook: { token_id: token },
    getPrice: { token_id: token, side: 'BUY' },
    getMidpoint: { token_id: token },
    getPricesHistory: { market: token },
    getTickSize: { token_id: token },
    getNegRisk: { token_id: token },
    getFeeRate: { token_id: token },
  };
  return { path, query: required[route] ?? {} };
}

/** Values that break a rule, each with a label. */
function violations(rule: ParamRule): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  if (rule.required) out.push(['missing', undefined], ['empty', '']);
  switch (rule.kind) {
    case 'int':
      out.push(['not an integer', 'ten'], ['a fraction', '1.5']);
      if (rule.min !== undefined) out.push(['below min', String(rule.min - 1)]);
      if (rule.max !== undefined) out.push(['above max', String(rule.max + 1)]);
      break;
    case 'number':
      out.push(['not a number', 'lots']);
      if (rule.min !== undefined) out.push(['below min', String(rule.min - 1)]);
      break;
    case 'bool':
      out.push(['not a boolean', 'yes']);
      break;
    case 'enum':
      out.push(['not an allowed value', 'NOT_ALLOWED']);
      break;
    case 'string':
      if (rule.maxLength !== undefined) out.push(['too long', 'x'.repeat(rule.maxLength + 1)]);
      break;
    case 'address':
      out.push(['not an address', 'nothex'], ['39 hex digits', `0x${'a'.repeat(39)}`]);
      break;
    case 'list':
      out.push(['empty item', 'a,,b']);
      break;
  }
  return out;
}

interface Case {
  readonly name: string;
  readonly route: RouteId;
  readonly param: string;
  readonly query: Record<string, string>;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const [route, rules] of Object.entries(ROUTE_RULES) as [RouteId, NonNullable<(typeof ROUTE_RULES)[RouteId]>][]) {
    if (NOT_SERVED.includes(route)) continue;
    for (const [param, rule] of Object.entries(rules.params)) {
      for (const [label, value] of violations(rule)) {
        out.push({ name: `${route} ${param}: ${label}`, route, param, query: { [param]: value as string } });
      }
    }
    for (const [a, b] of rules.requires ?? []) {
      const given = rules.params[a];
      const sample = given?.kind === 'enum' ? (given.values[0] as string) : '1';
      out.push({ name: `${route} ${a} without ${b}`, route, param: b, query: { [a]: sample } });
    }
  }
  return out;
}

const ALL = cases();

describe('part 4 parameter rules answer 400', () => {
  it('covers every served route of ROUTE_RULES', () => {
    const covered = new Set(ALL.map((c) => c.route));
    const expected = (Object.keys(ROUTE_RULES) as RouteId[]).filter(
      (r) => !NOT_SERVED.includes(r) && Object.values(ROUTE_RULES[r]!.params).some((rule) => violations(rule).length > 0),
    );
    expect([...covered].sort()).toEqual(expected.sort());
    expect(ALL.length).toBeGreaterThan(60);
  });

  it.each(ALL.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const base = validRequest(c.route);
    const query: Record<string, string> = { ...base.query };
    for (const [k, v] of Object.entries(c.query)) {
      if (v === undefined) delete query[k];
      else query[k] = v;
    }
    let expected = '';
    try {
      checkQuery(c.route, query);
    } catch (err) {
      expect(err).toBeInstanceOf(ParameterError);
      expected = (err as ParameterError).message;
    }
    expect(expected, 'the case breaks a rule').not.toBe('');
    const endpoint = ENDPOINTS[c.route];
    const qs = new URLSearchParams(query).toString();
    const target = `${sb.url}${fillPath(endpoint.path, base.path)}${qs ? `?${qs}` : ''}`;
    const { status, body } = await call(target, { method: endpoint.method });
    expect(status).toBe(400);
    expect(body).toEqual({ error: expected });
    expect(body.error).toContain(`'${c.param}'`);
  });

  it('the valid base request of every served route answers 200', async () => {
    for (const route of Object.keys(ROUTE_RULES) as RouteId[]) {
      if (NOT_SERVED.includes(route)) continue;
      const base = validRequest(route);
      const qs = new URLSearchParams(base.query).toString();
      const { status } = await call(`${sb.url}${fillPath(ENDPOINTS[route].path, base.path)}${qs ? `?${qs}` : ''}`);
      expect(status, route).toBe(200);
    }
  });
});
