import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';

/**
 * Serves `server`'s WebSocket upgrades on `paths` with `wss` (the sandbox's channels share the
 * app's HTTP server, each its own paths): a request for another path is left to the other
 * channels' handlers, and answered 404 only when no other handler listens; once `closed()` holds,
 * the socket is destroyed. Returns the function that stops serving.
 */
export function serveUpgrades(server: Server, paths: ReadonlySet<string>, wss: WebSocketServer, closed: () => boolean, accept: (ws: WebSocket, request: IncomingMessage) => void): () => void {
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
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request));
  };
  server.on('upgrade', onUpgrade);
  return () => server.off('upgrade', onUpgrade);
}
