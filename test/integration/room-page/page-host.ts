import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A second host in front of the service that serves its HTTP routes and no WebSocket, as the HTTP API does in AWS
 * (the room's socket is the room stack's, on another host): every request is passed to the service as it came, every
 * WebSocket upgrade is refused. The service's address is given once it runs (`serve`).
 */
export interface PageHost {
  url: string;
  /** Upgrades refused so far: a page that ignored its configured socket would have tried one here. */
  readonly refusedUpgrades: number;
  serve(serviceUrl: string): void;
  close(): Promise<void>;
}

export async function pageHost(): Promise<PageHost> {
  let target: URL | undefined;
  let refusedUpgrades = 0;
  const server: Server = createServer((req, res) => {
    if (!target) {
      res.writeHead(503).end();
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (_req, socket) => {
    refusedUpgrades += 1;
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get refusedUpgrades() {
      return refusedUpgrades;
    },
    serve(serviceUrl) {
      target = new URL(serviceUrl);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
