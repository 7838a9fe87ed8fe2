import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { skipAbsentPart } from './optional-part.ts';

/**
 * A real redis-server (Debian's package) of one test file: on a free loopback port, no
 * persistence, stopped with the file. `stop()` and `start()` again on the same port stand for a
 * Redis that goes away and comes back.
 */
export class RedisServer {
  #child: ChildProcess | undefined;
  #port = 0;

  /** True (after one line saying so) when redis-server is absent and CLOBOT_REQUIRE_REDIS is not 1. */
  static skip(): boolean {
    const present = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
    return skipAbsentPart({ name: 'redis-server', present, requiredBy: 'CLOBOT_REQUIRE_REDIS', install: 'apt-get install redis-server' });
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.#port}`;
  }

  /** Starts it (on the port it had, if it ran before) and resolves when it accepts connections. */
  async start(): Promise<void> {
    if (this.#port === 0) this.#port = await freePort();
    const child = spawn('redis-server', ['--port', String(this.#port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer): void => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          child.stdout?.off('data', onData);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready: ${out.slice(-500)}`)));
    });
  }

  /** Stops it (SIGTERM) and resolves when the process has ended. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
