import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { bearerOf, bindingRefusal, isLoopback, tokenMatches, WS_PROTOCOL, WS_TOKEN_PROTOCOL } from './access.ts';
import { ACTION_ROUTES, matchRoute, READ_ROUTES } from './control-routes.ts';
import type { ControlSource } from './control-source.ts';
import type { ControlMessage } from './control-state.ts';
import { dashboardAsset, DASHBOARD_PATHS } from './dashboard-assets.ts';
import { openApiDocument, type MountedRoute } from './openapi.ts';

/** Largest request body taken, bytes (an action's body is a few fields). */
const MAX_BODY = 64 * 1024;
/** A WebSocket subscriber that lets this much pile up unsent is dropped (it is not reading). */
const MAX_WS_BUFFERED = 8 * 1024 * 1024;

export interface ControlServerOptions {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  /** The bearer token every /api route (and a mounted one unless public) asks for; absent: none (loopback only). */
  readonly token?: string;
  /** The version in the OpenAPI document. */
  readonly version?: string;
}

/** A handler mounted beside the API (the Prometheus exporter's `/metrics`). */
export interface MountedHandler {
  readonly summary: string;
  readonly contentType: string;
  /** No token asked (default false: the API's token). */
  readonly public?: boolean;
  /** The body to answer a GET with. */
  readonly body: () => string | Promise<string>;
}

/**
 * The control server (issue 23 points 2 and 3) on node:http: the dashboard page and its assets,
 * the OpenAPI document, the read routes and the actions under /api (a bearer token asked first,
 * before a body is read: a request without it gets 401 and nothing is done), the message
 * WebSocket at /api/messages, and handlers other rooms mount (`/metrics`). It listens before the
 * run starts (the port is checked before anything is sent); until a source is attached, /api
 * answers 503.
 */
export class ControlServer {
  readonly #server: Server;
  readonly #wss: WebSocketServer;
  readonly #token: string | undefined;
  readonly #version: string;
  readonly #mounted = new Map<string, MountedHandler>();
  #source: ControlSource | undefined;
  readonly #sockets = new Set<WebSocket>();
  #url = '';

  private constructor(options: ControlServerOptions) {
    this.#token = options.token;
    this.#version = options.version ?? '0';
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: 4096, handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false) });
    this.#server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#upgrade(req, socket, head));
  }

  /** Starts listening; refuses (throws, one line) an address beyond loopback without a token. */
  static async start(options: ControlServerOptions): Promise<ControlServer> {
    const refusal = bindingRefusal(options.host, options.token);
    if (refusal !== undefined) throw new Error(refusal);
    const server = new ControlServer(options);
    server.#server.listen(options.port, options.host);
    await Promise.race([once(server.#server, 'listening'), once(server.#server, 'error').then(([err]) => Promise.reject(err as Error))]);
    const address = server.#server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    server.#url = `http://${host}:${address.port}`;
    return server;
  }

  get url(): string {
    return this.#url;
  }

  /** The run to serve (the /api routes answer 503 before). */
  attach(source: ControlSource): void {
    this.#source = source;
  }

  /** Serves `handler` at GET `path` (the API's token asked unless `public`). */
  mount(path: string, handler: MountedHandler): void {
    this.#mounted.set(path, handler);
  }

  async close(): Promise<void> {
    for (const ws of this.#sockets) ws.terminate();
    this.#wss.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://control.invalid');
      const path = url.pathname;
      const method = req.method ?? 'GET';
      const refusal = this.#crossSite(req);
      if (refusal !== undefined) return send(res, 403, { ok: false, message: refusal });
      const asset = DASHBOARD_PATHS.get(path);
      if (asset !== undefined && (method === 'GET' || method === 'HEAD')) return sendAsset(res, dashboardAsset(asset));
      if (path === '/openapi.json' && method === 'GET') return send(res, 200, openApiDocument(this.#version, this.#mountedRoutes()));
      const mounted = this.#mounted.get(path);
      if (mounted !== undefined && method === 'GET') {
        if (!mounted.public && !this.#authorized(req)) return unauthorized(res);
        const body = await mounted.body();
        res.writeHead(200, { 'content-type': mounted.contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
        res.end(body);
        return;
      }
      if (!path.startsWith('/api/')) return send(res, 404, { ok: false, message: `no route ${method} ${path}` });
      // the token before anything else: a request without it reads nothing and does nothing
      if (!this.#authorized(req)) return unauthorized(res);
      const source = this.#source;
      if (source === undefined) return send(res, 503, { ok: false, message: 'the run is starting' });
      if (method === 'GET') {
        const read = matchRoute(READ_ROUTES, path);
        if (read === undefined) return send(res, 404, { ok: false, message: `no route GET ${path}` });
        return send(res, 200, read.route.read(source.state()));
      }
      if (method !== 'POST') return send(res, 405, { ok: false, message: `${method} is not served; GET reads, POST acts` });
      const action = matchRoute(ACTION_ROUTES, path);
      if (action === undefined) return send(res, 404, { ok: false, message: `no route POST ${path}` });
      if (source.actions === undefined) return send(res, 403, { ok: false, message: 'read-only: this dashboard reads a store file and takes no actions' });
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return send(res, 415, { ok: false, message: 'the body must be application/json (an empty object for none)' });
      const body = await readJson(req);
      if (typeof body === 'string') return send(res, 400, { ok: false, message: body });
      const answer = await action.route.run(source.actions, body, action.id);
      return send(res, answer.status, answer.body);
    } catch (err) {
      if (!res.headersSent) send(res, 500, { ok: false, message: `control server error: ${err instanceof Error ? err.message : String(err)}` });
      else res.destroy();
    }
  }

  /**
   * A browser page of another site may not drive this API: a request whose Origin is not this
   * server is refused, and without a token the Host must name loopback (no DNS rebinding).
   */
  #crossSite(req: IncomingMessage): string | undefined {
    const host = req.headers.host ?? '';
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) return `cross-origin request from ${origin} refused`;
    if (this.#token === undefined && !isLoopback(host.replace(/:\d+$/, ''))) return `host ${host} refused: without a token only loopback names are served`;
    return undefined;
  }

  #authorized(req: IncomingMessage): boolean {
    if (this.#token === undefined) return true;
    return tokenMatches(this.#token, bearerOf(req.headers.authorization));
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://control.invalid').pathname;
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    };
    if (path !== '/api/messages') return refuse(404, 'Not Found');
    if (this.#crossSite(req) !== undefined) return refuse(403, 'Forbidden');
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const fromProtocol = offered.find((p) => p.startsWith(WS_TOKEN_PROTOCOL))?.slice(WS_TOKEN_PROTOCOL.length);
    const token = bearerOf(req.headers.authorization) ?? fromProtocol;
    if (this.#token !== undefined && !tokenMatches(this.#token, token)) return refuse(401, 'Unauthorized');
    const source = this.#source;
    if (source === undefined) return refuse(503, 'Service Unavailable');
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#subscribe(ws, source));
  }

  #subscribe(ws: WebSocket, source: ControlSource): void {
    this.#sockets.add(ws);
    const push = (message: ControlMessage) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_WS_BUFFERED) {
        ws.close(1008, 'not reading: dropped');
        return;
      }
      ws.send(JSON.stringify(message));
    };
    const off = source.subscribe(push);
    ws.on('close', () => {
      off();
      this.#sockets.delete(ws);
    });
    ws.on('error', () => ws.terminate());
    push({ type: 'hello', state: source.state() });
  }

  #mountedRoutes(): MountedRoute[] {
    return [...this.#mounted].map(([path, m]) => ({ path, summary: m.summary, contentType: m.contentType, public: m.public === true }));
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

function unauthorized(res: ServerResponse): void {
  res.setHeader('www-authenticate', 'Bearer realm="clobot"');
  send(res, 401, { ok: false, message: 'a bearer token is needed (Authorization: Bearer <CLOBOT_CONTROL_TOKEN>); nothing was done' });
}

function sendAsset(res: ServerResponse, asset: { readonly type: string; readonly body: Buffer }): void {
  res.writeHead(200, {
    'content-type': asset.type,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // nothing leaves this server: scripts, styles, data and the WebSocket are all its own
    'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  });
  res.end(asset.body);
}

/** The body as a JSON object (empty: {}), or one line saying why it is not one. */
async function readJson(req: IncomingMessage): Promise<Readonly<Record<string, unknown>> | string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return `the body is over ${MAX_BODY} bytes`;
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : 'the body must be a JSON object';
  } catch (err) {
    return `the body is not JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
}
