import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { MarketChannel, type MarketChannelOptions } from '../../../src/sandbox/ws/market-channel.ts';
import { rawDataText } from '../../../src/sandbox/ws/raw-data-text.ts';
import { flowRig, type FlowRig, type FlowRigOptions } from '../flow/helpers.ts';

export interface ChannelRig extends FlowRig {
  readonly channel: MarketChannel;
  readonly server: Server;
  /** `http://127.0.0.1:port` */
  readonly base: string;
  /** `ws://127.0.0.1:port/ws/market` */
  readonly wsUrl: string;
  close(): Promise<void>;
}

/**
 * A flow rig (simulated clock, sandbox engine, flow not started unless asked) with the market
 * channel on a plain HTTP server over loopback.
 */
export async function channelRig(
  options: FlowRigOptions & { channel?: Partial<Omit<MarketChannelOptions, 'engine' | 'clock'>> } = {},
): Promise<ChannelRig> {
  const rig = flowRig({ start: false, ...options });
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const channel = new MarketChannel({ engine: rig.engine, clock: rig.clock, ...options.channel });
  channel.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    ...rig,
    channel,
    server,
    base: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws/market`,
    close: async () => {
      rig.flow.stop();
      channel.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits (in real time) until `check` holds, re-checking on every `poke` and every 5 ms. */
export async function until(check: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A plain ws client that keeps every text frame, parsed when JSON. */
export class TestClient {
  readonly ws: WebSocket;
  readonly frames: unknown[] = [];
  closed = false;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const text = rawDataText(data);
      try {
        this.frames.push(JSON.parse(text));
      } catch {
        this.frames.push(text);
      }
    });
    ws.on('close', () => {
      this.closed = true;
    });
  }

  static async open(url: string): Promise<TestClient> {
    const ws = new WebSocket(url);
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Every message so far, arrays of messages flattened, PONGs left out. */
  messages(): Record<string, any>[] {
    const out: Record<string, any>[] = [];
    for (const f of this.frames) {
      if (Array.isArray(f)) out.push(...f);
      else if (typeof f === 'object' && f !== null) out.push(f as Record<string, any>);
    }
    return out;
  }

  /** Sends PING and waits for its PONG: every message the server sent before is then here. */
  async sync(): Promise<void> {
    const pongs = this.frames.filter((f) => f === 'PONG').length;
    this.send('PING');
    await until(() => this.frames.filter((f) => f === 'PONG').length > pongs, 'PONG');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.ws.close();
    await until(() => this.closed, 'client close');
  }
}

/**
 * A client that does the WebSocket handshake by hand, sends one text frame and then never reads
 * again: the server's data piles up in the kernel and then in the server's own buffers.
 */
export async function stalledClient(port: number, path: string, text: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  const key = randomBytes(16).toString('base64');
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await new Promise<void>((resolve) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('latin1');
      if (seen.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
  });
  socket.pause();
  // One masked text frame (client frames must be masked).
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const header =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) masked[i] = (payload[i] as number) ^ (mask[i % 4] as number);
  socket.write(Buffer.concat([header, mask, masked]));
  return socket;
}
