import { afterEach, describe, expect, it, vi } from 'vitest';
import { invokeHandler } from '../../../lib/local/gateway.ts';
import { roomLambdas } from '../../../functions/room/lambdas.ts';
import { routeKey, routes } from '../../../functions/routes.ts';
import { clockOf, INSIDER } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { captureStdout, useLogsAndMetrics } from '../../support/stdout.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { insiderInRoom } from './room-helpers.ts';

/**
 * The room's Lambdas are observed as the API's: every route of the room's socket and every room page Lambda writes
 * the same `request` line as an HTTP route (the same keys, under its own correlation id) and publishes the same
 * route metrics; the room's timer and bot are bot runs, as the other bots. What is expected comes from the tables
 * (functions/room/lambdas.ts, the room page's routes of functions/routes.ts), so a new Lambda that is not observed
 * fails here.
 */
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);

/** The bot name each room Lambda that is no socket route runs under (runtime/bot-run.ts `botRun`). */
const BOT_RUNS: Record<string, string> = { timer: 'room-transition', bot: 'room' };

const PAGE_HANDLERS = [...new Set(routes.filter((r) => r.handler.startsWith('room-page/')).map((r) => r.handler))];
const pageRoutesOf = (handler: string) => routes.filter((r) => r.handler === handler).map(routeKey);

useLogsAndMetrics();
afterEach(() => clock.reset());

describe('the room observed as the API', { timeout: 120_000 }, () => {
  it('logs every socket route and room page Lambda with the request line and metrics of an HTTP route, and the timer and the bot as bot runs', async () => {
    const setup = captureStdout(); // its lines are not this test's
    const a = await insiderInRoom(api, clock, service).finally(setup.stop);
    const link = new URL(a.link);
    const form = new URLSearchParams({
      bidder_id: link.searchParams.get('bidder_id')!,
      signature: link.searchParams.get('signature')!,
    });
    const page = `${service.url}/insider-auctions/${a.id}`;
    const captured = captureStdout();
    try {
      // The yardstick: an API route.
      expect((await api.get(`${INSIDER}/${a.id}`)).status).toBe(200);
      // The room page: the page, its files, the link's terms, the agreement and the socket token.
      expect((await fetch(page)).status).toBe(200);
      expect((await fetch(`${service.url}/room-page/room.js`)).status).toBe(200);
      expect((await fetch(a.link)).status).toBe(200);
      const agreed = await fetch(`${page}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      expect(agreed.status).toBe(303);
      const cookie = agreed.headers.get('set-cookie')!.split(';')[0];
      expect((await fetch(`${page}/session`, { headers: { cookie } })).status).toBe(200);
      // The socket: a bidder connects, resumes, pings, bids, sends what names no action, and leaves.
      const bidder = await RoomClient.open(RoomClient.url(service.url, a.id, a.link));
      await bidder.ask({ action: 'resume' }, 'room');
      await bidder.ask({ action: 'ping' }, 'pong');
      await bidder.ask({ action: 'bid', amount: 1 }, 'bid');
      await bidder.ask('{"action":"shout"}', 'error');
      bidder.close();
      await vi.waitFor(
        () => expect(captured.lines()).toContainEqual(expect.objectContaining({ route: 'ws $disconnect' })),
        {
          timeout: 10_000,
        },
      );
      // The room's timer (a Step Functions task in AWS invokes its Lambda with the order) and the room bot.
      await invokeHandler('room/transition', { auctionId: a.id, version: 1 });
      await service.bot('room');
    } finally {
      captured.stop();
    }
    const lines = captured.lines();
    const requests = lines.filter((l) => l.message === 'request');
    const metrics = lines.filter((l) => l._aws);

    const http = requests.find((l) => l.route === `GET ${INSIDER}/{auctionId}`)!;
    const httpMetrics = metrics.find((l) => l.route === http.route)!;
    const lineKeys = Object.keys(http).filter((k) => k !== 'auctionId');
    expect(lineKeys).toEqual(
      expect.arrayContaining(['correlation_id', 'route', 'requestId', 'status', 'latencyMs', 'caller', 'role']),
    );
    const metricNames = httpMetrics._aws.CloudWatchMetrics[0].Metrics;

    const observedAsHttp = (route: string) => {
      const line = requests.find((l) => l.route === route);
      expect(line, `a request line of ${route}`).toBeDefined();
      for (const key of lineKeys) expect(line, `${route}: ${key}`).toHaveProperty(key);
      expect(line!.correlation_id).not.toBe(http.correlation_id);
      const published = metrics.find((l) => l.route === route);
      expect(published, `the metrics of ${route}`).toBeDefined();
      expect(published!._aws.CloudWatchMetrics[0]).toMatchObject({
        Namespace: 'Agora',
        Dimensions: [['service', 'route']],
      });
      expect(published!._aws.CloudWatchMetrics[0].Metrics).toEqual(metricNames);
      expect(published!.Requests).toBe(1);
      return line!;
    };

    const sockets = roomLambdas.filter((l) => l.kind === 'route');
    expect(sockets.length).toBeGreaterThan(0);
    for (const lambda of sockets) observedAsHttp(`ws ${lambda.route}`);
    for (const handler of PAGE_HANDLERS) {
      const route = pageRoutesOf(handler).find((r) => requests.some((l) => l.route === r));
      expect(route, `a request line of ${handler}`).toBeDefined();
      observedAsHttp(route!);
    }
    for (const lambda of roomLambdas.filter((l) => l.kind !== 'route')) {
      const bot = BOT_RUNS[lambda.kind];
      expect(lines, `${lambda.name}: a bot run`).toContainEqual(expect.objectContaining({ message: 'bot run', bot }));
      expect(lines, `${lambda.name}: its heartbeat`).toContainEqual(expect.objectContaining({ bot, BotRuns: 1 }));
    }

    // A message's lines share its correlation id; the caller is the bidder; a refusal is a client error.
    const bid = requests.find((l) => l.route === 'ws bid')!;
    expect(bid).toMatchObject({ status: 200, caller: a.b1.id, role: 'bidder', auctionId: a.id });
    expect(lines.find((l) => l.message === 'room bid')?.correlation_id).toBe(bid.correlation_id);
    expect(requests.find((l) => l.route === 'ws $default')).toMatchObject({ status: 422, role: 'bidder' });
    expect(metrics.find((l) => l.route === 'ws $default')).toMatchObject({ ClientErrors: 1, ServerErrors: 0 });
  });
});
