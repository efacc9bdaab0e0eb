/**
 * The webhook bench's receivers, on a thread of their own (one HTTP server, a path per subscription): a webhook is
 * answered 204 the moment its body is in, whatever the bench's own thread (the creates, the bookkeeping) is doing, so
 * a first attempt's 2 s is never spent waiting on the bench. What came is posted to the bench's thread every 50 ms:
 * (path, webhook-id, arrival time in ms, the body's dateModified and type). A path under `/hang` is never answered.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';

export interface Arrival {
  path: string;
  id: string;
  at: number;
  type: string;
  dateModified: string;
}

let pending: Arrival[] = [];
const server = createServer((req, res) => {
  // `/hang…`: a receiver that takes the connection and never answers (the hostile run's).
  if (req.url?.startsWith('/hang')) return;
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    res.writeHead(204).end();
    const body = JSON.parse(Buffer.concat(chunks).toString());
    pending.push({
      path: req.url ?? '',
      id: String(req.headers['webhook-id']),
      at,
      type: String(body.type),
      dateModified: String(body.data?.dateModified),
    });
  });
});
// The sender keeps connections alive: so does the receiver, as a platform's would.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => parentPort!.postMessage({ port: (server.address() as AddressInfo).port }));
setInterval(() => {
  if (!pending.length) return;
  parentPort!.postMessage({ arrivals: pending });
  pending = [];
}, 50);
parentPort!.on('message', (m) => {
  if (m === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
