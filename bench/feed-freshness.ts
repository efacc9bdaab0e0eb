/**
 * The feeds' freshness delay (issue 33): how long after a change is answered a listing page first shows it. The
 * feeds hold back rows changed in the last AGORA_FEED_SETTLE_MS (3 s by default, store/feeds.ts), so that a forward
 * crawler never misses a change that commits late: this measures what that costs a client, against `npm start`'s
 * server with its default window.
 */
type Call = (
  method: string,
  path: string,
  data?: unknown,
  options?: { token?: string },
) => Promise<{ status: number; body: any }>;

export interface Freshness {
  changes: number;
  /** ms from the PATCH's answer to the first feed page that shows the change. */
  p50: number;
  max: number;
  min: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A write sent again while it answers "not stored" (a cold server may take longer than the write budget). */
async function stored<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= 5 || !String(error).includes(': 503 ')) throw error;
    }
  }
}

/** `changes` lots, each published, then PATCHed once while a reader polls the feed's newest page every 25 ms. */
export async function measureFeedFreshness(call: Call, lotBody: () => object, changes = 10): Promise<Freshness> {
  const lots = await Promise.all(
    Array.from({ length: changes }, async () => {
      const created = await stored(() => call('POST', '/api/0.1/lots', lotBody()));
      const { id } = created.body.data;
      const token = created.body.access.token as string;
      await stored(() => call('PATCH', `/api/0.1/lots/${id}`, { status: 'pending' }, { token }));
      return { id: id as string, token };
    }),
  );
  const delays = await Promise.all(
    lots.map(async ({ id, token }, i) => {
      await pause(i * 100); // spread over a second, so pages see them one by one
      const changed = await stored(() => call('PATCH', `/api/0.1/lots/${id}`, { title: `fresh ${i}` }, { token }));
      const answered = performance.now();
      const dateModified = changed.body.data.dateModified as string;
      for (;;) {
        const page = await call('GET', '/api/0.1/lots?descending=1&limit=100');
        if (page.body.data.some((row: any) => row.id === id && row.dateModified === dateModified))
          return performance.now() - answered;
        await pause(25);
      }
    }),
  );
  const sorted = delays.sort((a, b) => a - b);
  return {
    changes,
    p50: Math.round(sorted[Math.floor(sorted.length / 2)]),
    min: Math.round(sorted[0]),
    max: Math.round(sorted.at(-1)!),
  };
}

export function freshnessSection(f: Freshness, settleMs: number): string[] {
  return [
    '## Feed freshness',
    '',
    `${f.changes} lots PATCHed ~100 ms apart; a reader polls \`GET /api/0.1/lots?descending=1&limit=100\` every 25 ms and ` +
      `times each change from its PATCH's answer to the first page that shows it. The settle window is ${settleMs} ms ` +
      '(AGORA_FEED_SETTLE_MS): pages hold back rows stamped later than now minus the window, so that a change that ' +
      'commits late never lands behind a crawler (store/feeds.ts, docs/api.md "How a platform syncs").',
    '',
    '| changes | min ms | p50 ms | max ms |',
    '|---|---|---|---|',
    `| ${f.changes} | ${f.min} | ${f.p50} | ${f.max} |`,
    '',
  ];
}
