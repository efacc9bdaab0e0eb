import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { verify } from '../../functions/domain/webhooks/signature.ts';
import { type ChangeStream, startChangeStream } from '../../lib/local/change-stream.ts';

/** A webhook as a receiver got it: its headers and body text, and the parsed body. */
export interface Received {
  id: string;
  timestamp: number;
  signature: string;
  text: string;
  body: { type: string; timestamp: string; data: Record<string, any> };
  /** When it came (ms since the epoch). */
  arrivedAt: number;
}

/** What the receiver answers a webhook (at once, or when a promise says): a status and headers, or `hang` (never). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A real HTTP receiver on the loopback interface: it records every webhook and answers as `reply` says (by default
 * 204). Its URL is what a subscription points at.
 */
export async function startReceiver(
  reply: (w: Received, seen: number) => Reply | Promise<Reply> = () => ({ status: 204 }),
) {
  const received: Received[] = [];
  const seenById = new Map<string, number>();
  const hanging: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const w: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: Number(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        text,
        body: JSON.parse(text),
        arrivedAt: Date.now(),
      };
      const seen = (seenById.get(w.id) ?? 0) + 1;
      seenById.set(w.id, seen);
      received.push(w);
      void Promise.resolve(reply(w, seen)).then((r) => {
        if (r === 'hang') {
          hanging.push(res);
          return;
        }
        if (!res.destroyed) res.writeHead(r.status, r.headers).end(r.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The webhooks answered 2xx, first answer of each id (what the receiver accepted). */
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Does the webhook's signature verify with this secret? */
export const verifies = (w: Received, secret: string) => verify(secret, w.id, w.timestamp, w.text, w.signature);

/**
 * The local change stream over this file's table (a `useService({ changeStream: true })` file), read every 50 ms from
 * before the file's tests until after them: what `npm start` runs beside the gateway.
 */
export function useChangeStream(options: { log?: (line: string) => void } = {}): ChangeStream {
  let stream: ChangeStream;
  beforeAll(async () => {
    stream = await startChangeStream({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      table: process.env.TABLE_NAME!,
      intervalMs: 50,
      ...options,
    });
  });
  afterAll(() => stream?.stop());
  return {
    stop: () => stream.stop(),
    stats: () => stream.stats(),
    drained: () => stream.drained(),
    redrive: () => stream.redrive(),
  };
}

/**
 * The retry sweep every second from before a file's tests until after them, as `npm start` runs it: a first attempt
 * that failed (or a slow answer on a loaded machine) is retried from its subscription's queue meanwhile.
 */
export function useRetrySweep(service: { bot(name: string): Promise<unknown> }): void {
  let sweeping = true;
  let sweeps: Promise<void>;
  beforeAll(() => {
    sweeps = (async () => {
      while (sweeping) {
        await service.bot('webhooks');
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
  });
  afterAll(async () => {
    sweeping = false;
    await sweeps;
  });
}

/** Each object's seqs in the order they arrived at one receiver, first arrival of each webhook only. */
export function arrivalOrder(received: readonly Received[]): Map<string, number[]> {
  const seen = new Set<string>();
  const byObject = new Map<string, number[]>();
  for (const w of received) {
    if (seen.has(w.id)) continue;
    seen.add(w.id);
    byObject.set(w.body.data.id, [...(byObject.get(w.body.data.id) ?? []), w.body.data.seq]);
  }
  return byObject;
}
