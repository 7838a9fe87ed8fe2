import { ACTION_ROUTES, READ_ROUTES } from './control-routes.ts';

/** A mounted route as the document lists it (e.g. `/metrics`). */
export interface MountedRoute {
  readonly path: string;
  readonly summary: string;
  readonly contentType: string;
  readonly public: boolean;
}

/**
 * The control API's OpenAPI 3.1 document, built from the route tables themselves (so it cannot
 * drift from what the server answers), with the routes mounted beside them.
 */
export function openApiDocument(version: string, mounted: readonly MountedRoute[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const json = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
  const denied = { '401': { description: 'No token or a wrong one: nothing was done' } };
  for (const r of READ_ROUTES) {
    paths[r.path] = { get: { summary: r.summary, security: [{ bearer: [] }], responses: { '200': json(r.summary), ...denied, '503': { description: 'The run is still starting' } } } };
  }
  for (const r of ACTION_ROUTES) {
    const parameters = r.path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, description: "The strategy's id (its config's `strategies[].id`)", schema: { type: 'string' } }] : undefined;
    paths[r.path] = {
      post: {
        summary: r.summary,
        security: [{ bearer: [] }],
        ...(parameters ? { parameters } : {}),
        requestBody: {
          required: (r.body.required?.length ?? 0) > 0,
          content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: r.body.properties, ...(r.body.required ? { required: r.body.required } : {}) } } },
        },
        responses: {
          '200': json('Done: { ok: true, command, message, ... } says what was done (journaled)'),
          '400': json('A body that is not JSON, or a field of the wrong type (named)'),
          ...denied,
          '403': json('A read-only dashboard (a store file) takes no actions'),
          '409': json('Refused by the engine, nothing changed (journaled with why)'),
          '415': { description: 'The body is not application/json' },
          '422': json('Refused input (the message names the key)'),
        },
      },
    };
  }
  paths['/api/messages'] = {
    get: {
      summary:
        "The message WebSocket: JSON messages { type: hello | state | fill | order | command | health | log | pnl | rewards, ... }. Token: the Authorization header, or the subprotocol 'bearer.<token>' beside 'clobot.v1'",
      security: [{ bearer: [] }],
      responses: { '101': { description: 'Switching to the WebSocket' }, ...denied },
    },
  };
  for (const m of mounted) {
    paths[m.path] = { get: { summary: m.summary, ...(m.public ? {} : { security: [{ bearer: [] }] }), responses: { '200': { description: m.summary, content: { [m.contentType]: {} } }, ...(m.public ? {} : denied) } } };
  }
  paths['/'] = { get: { summary: 'The dashboard (a web page; it asks for the token and keeps it in the tab only)', responses: { '200': { description: 'HTML', content: { 'text/html': {} } } } } };
  return {
    openapi: '3.1.0',
    info: { title: 'clobot control API', version, description: 'Watch and control a running clobot: state, health, positions, orders, fills, PnL, strategies; halt, resume, cancel all, flatten, stop a strategy, set its params. Every action is journaled in the run store and answered with what it did.' },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The value of CLOBOT_CONTROL_TOKEN (none needed when unset and bound to loopback)' } } },
    paths,
  };
}
