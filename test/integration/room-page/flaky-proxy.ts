import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the service that drops connections at random: what a phone on a bad network does to the
 * room page. Every connection (the page's HTTP requests and its WebSocket) goes through it; while `chaos` runs, one
 * open connection, chosen at random, is cut every `minMs`..`maxMs`. The seeded generator makes a run repeatable.
 */
export interface FlakyProxy {
  url: string;
  /** Connections cut so far. */
  readonly cuts: number;
  chaos(on: boolean): void;
  close(): Promise<void>;
}

export async function flakyProxy(target: string, seed: number, minMs = 300, maxMs = 1500): Promise<FlakyProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<[Socket, Socket]>();
  let state = seed >>> 0;
  const random = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    const pair: [Socket, Socket] = [client, upstream];
    open.add(pair);
    const drop = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  let cuts = 0;
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    timer = setTimeout(
      () => {
        const pairs = [...open];
        if (pairs.length) {
          const [client, upstream] = pairs[Math.floor(random() * pairs.length)];
          cuts += 1;
          client.destroy();
          upstream.destroy();
        }
        next();
      },
      minMs + random() * (maxMs - minMs),
    );
  };
  return {
    url: `http://127.0.0.1:${own}`,
    get cuts() {
      return cuts;
    },
    chaos(on) {
      clearTimeout(timer);
      timer = undefined;
      if (on) next();
    },
    close() {
      clearTimeout(timer);
      for (const [a, b] of open) {
        a.destroy();
        b.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
