import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny real HTTP server on 127.0.0.1 (free port) for transport tests: it records every
 * request that reaches it (method, path, headers, exact body, arrival time) and lets the test
 * script the answer. Not a mock of our client: the client talks real HTTP to it.
 */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Arrival time of the complete request, epoch ms. */
  readonly at: number;
}

export type Handler = (req: SeenRequest, res: ServerResponse, n: number, raw: IncomingMessage) => void | Promise<void>;

export interface Loopback {
  readonly url: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startLoopback(handler: Handler): Promise<Loopback> {
  const requests: SeenRequest[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const seen: SeenRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(seen);
      void handler(seen, res, requests.length, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
