import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** What serves the text of /metrics (the PrometheusExporter). */
export interface MetricsText {
  text(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsServerOptions {
  readonly exporter: MetricsText;
  /** 0: any free port. */
  readonly port: number;
  /** Listen address; default 127.0.0.1. Any other than loopback needs `token`. */
  readonly host?: string;
  /** A bearer token every scrape must carry (`Authorization: Bearer <token>`); required off loopback. */
  readonly token?: string;
}

export interface RunningMetricsServer {
  /** `http://host:port` (the port chosen when 0 was asked). */
  readonly url: string;
  close(): Promise<void>;
}

/** A server refused at start (a non-loopback address without a token, a bad address). */
export class MetricsServerError extends Error {
  override readonly name = 'MetricsServerError';
}

/** Whether `host` is a loopback address or name (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * The small standalone `/metrics` server of `clobot run --metrics-port N`, for a run without the
 * control server (which mounts the same exporter on its own port). GET /metrics answers the
 * exporter's text; anything else 404. Loopback by default; another address only with a token,
 * compared in constant time; a wrong or missing one is 401 and nothing is read.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<RunningMetricsServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token === undefined || options.token === '' ? undefined : Buffer.from(`Bearer ${options.token}`);
  if (!isLoopback(host) && token === undefined) {
    throw new MetricsServerError(`--metrics-host ${host} is not a loopback address: set CLOBOT_METRICS_TOKEN to serve /metrics off loopback (scrapers send it as a bearer token)`);
  }
  const exporter = options.exporter;
  const server = createServer((req, res) => void answer(req, res, exporter, token));
  server.listen(options.port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(new MetricsServerError(`/metrics could not listen on ${host}:${options.port}: ${(err as Error).message}`)))]);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, exporter: MetricsText, token: Buffer | undefined): Promise<void> {
  if (token !== undefined) {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== token.length || !timingSafeEqual(given, token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
      return;
    }
  }
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
    return;
  }
  try {
    const text = await exporter.text();
    res.writeHead(200, { 'content-type': exporter.contentType });
    res.end(req.method === 'HEAD' ? undefined : text);
  } catch (err) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
