import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { eventLoopBudget, type SlicedWork } from './turn-budget.ts';

/** An upgrade request for a channel's path, waiting for its turn. */
interface QueuedUpgrade {
  readonly request: IncomingMessage;
  readonly socket: Duplex;
  readonly head: Buffer;
  readonly channel: ChannelUpgrades;
  /** Destroys the socket when it fails while queued (no other 'error' listener is on it yet). */
  readonly onError: () => void;
}

/** One channel's way of taking an upgrade (its paths are checked before it is queued). */
interface ChannelUpgrades {
  readonly wss: WebSocketServer;
  readonly closed: () => boolean;
  readonly accept: (ws: WebSocket, request: IncomingMessage) => void;
}

/**
 * The upgrades of one HTTP server waiting for their handshake, in the order they came, over all
 * the channels served on it, admitted an upgrade a step under the event loop's `TurnBudget`: a
 * connect burst's hundreds of upgrade requests arrive in a few polls of the sockets, and their
 * handshakes (header checks, a SHA-1, the 101 answer written, a WebSocket made) done there held
 * the HTTP routes for tens of milliseconds. A socket waits unread (node leaves an upgraded socket
 * paused until someone reads it), and one that fails or closes while it waits is destroyed.
 */
class UpgradeQueue implements SlicedWork {
  readonly #waiting = new Set<QueuedUpgrade>();

  add(upgrade: QueuedUpgrade): void {
    upgrade.socket.on('error', upgrade.onError);
    this.#waiting.add(upgrade);
    eventLoopBudget.wake(this);
  }

  /** Destroys the waiting sockets of `channel` (its handler is going away). */
  forget(channel: ChannelUpgrades): void {
    for (const upgrade of this.#waiting) {
      if (upgrade.channel !== channel) continue;
      this.#waiting.delete(upgrade);
      upgrade.socket.off('error', upgrade.onError);
      upgrade.socket.destroy();
    }
  }

  pending(): boolean {
    return this.#waiting.size > 0;
  }

  /** Does the handshake of the upgrade that has waited longest. */
  step(): void {
    for (const upgrade of this.#waiting) {
      this.#waiting.delete(upgrade);
      const { request, socket, head, channel } = upgrade;
      socket.off('error', upgrade.onError);
      if (socket.destroyed || channel.closed()) {
        socket.destroy();
        return;
      }
      channel.wss.handleUpgrade(request, socket, head, (ws) => channel.accept(ws, request));
      return;
    }
  }
}

/** One queue per HTTP server, shared by the channels served on it (fair over all of them). */
const queues = new WeakMap<Server, UpgradeQueue>();

/**
 * Serves `server`'s WebSocket upgrades on `paths` with `wss` (the sandbox's channels share the
 * app's HTTP server, each its own paths): a request for another path is left to the other
 * channels' handlers, and answered 404 only when no other handler listens; once `closed()` holds,
 * the socket is destroyed. The handshakes are done a step at a time under the event loop's budget, over all
 * the channels of the server (`UpgradeQueue`). Returns the function that stops serving (and
 * destroys this channel's sockets still waiting for their handshake).
 */
export function serveUpgrades(server: Server, paths: ReadonlySet<string>, wss: WebSocketServer, closed: () => boolean, accept: (ws: WebSocket, request: IncomingMessage) => void): () => void {
  let queue = queues.get(server);
  if (queue === undefined) {
    queue = new UpgradeQueue();
    queues.set(server, queue);
  }
  const channel: ChannelUpgrades = { wss, closed, accept };
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = request.url ?? '';
    const q = url.indexOf('?');
    if (!paths.has(q < 0 ? url : url.slice(0, q))) {
      if (server.listenerCount('upgrade') <= 1) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (closed()) {
      socket.destroy();
      return;
    }
    queue.add({ request, socket, head, channel, onError: () => socket.destroy() });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    queue.forget(channel);
  };
}
