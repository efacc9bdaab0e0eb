import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { putApiKey } from '../../functions/store/api-keys.ts';
import { aLot } from '../support/builders.ts';
import { client } from '../support/http.ts';
import { createLot } from '../support/lots.ts';
import { useService } from '../support/service.ts';
import { captureStdout, useLogsAndMetrics } from '../support/stdout.ts';

const service = useService();
const api = client(() => service.url);

/** Everything written to stdout (JSON log lines and EMF metrics) while `fn` runs, one parsed JSON object a line. */
async function captured(fn: () => Promise<void>): Promise<{ raw: string; lines: Record<string, any>[] }> {
  const capture = captureStdout();
  try {
    await fn();
  } finally {
    capture.stop();
  }
  return { raw: capture.raw(), lines: capture.lines() };
}

useLogsAndMetrics();

describe('logs, metrics and correlation ids', () => {
  it('logs each request once with its correlation id, and returns the id', async () => {
    const { lines } = await captured(async () => {
      const res = await api.get('/api/0.1/lots', { headers: { 'x-correlation-id': 'trace-me-12345' } });
      expect(res.headers.get('x-correlation-id')).toBe('trace-me-12345');
      const other = await api.get('/api/0.1/lots');
      expect(other.headers.get('x-correlation-id')).toMatch(/^[\w-]{8,}$/);
    });
    const requests = lines.filter((l) => l.message === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      level: 'INFO',
      service: 'agora',
      correlation_id: 'trace-me-12345',
      route: 'GET /api/0.1/lots',
      status: 200,
      caller: 'broker',
      role: 'broker',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      cold_start: expect.any(Boolean),
    });
    // The invocation's request id (the local gateway makes one per request, as Lambda does).
    expect(requests[0].requestId).toMatch(/^[\w-]{8,}$/);
    expect(requests[1].requestId).not.toBe(requests[0].requestId);
    // Every line is a log line (with a level) or an EMF document, never anything else.
    for (const line of lines) expect(line.level ?? line._aws).toBeDefined();
    const metrics = lines.filter((l) => l._aws);
    expect(metrics[0]._aws.Timestamp).toBeGreaterThan(Date.now() - 60_000);
    expect(metrics[0]).toMatchObject({
      service: 'agora',
      route: 'GET /api/0.1/lots',
      Requests: 1,
      ServerErrors: 0,
      ClientErrors: 0,
    });
    expect(metrics[0]._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'Agora',
      Dimensions: [['service', 'route']],
    });
  });

  it('never logs a key, an access token or an Authorization header', async () => {
    const key = randomBytes(24).toString('hex');
    await putApiKey(key, { name: 'logged-broker', role: 'broker', levels: '1234' });
    const basic = Buffer.from(`${key}:`).toString('base64');
    const secrets: string[] = [key, basic];
    let lotId = '';
    const { raw, lines } = await captured(async () => {
      const created = await api.call('POST', '/api/0.1/lots', aLot(), { as: key });
      lotId = created.body.data.id;
      const lot = { id: created.body.data.id, token: created.body.access.token as string };
      secrets.push(lot.token);
      await api.patch(`/api/0.1/lots/${lot.id}`, { status: 'pending' }, { as: key, token: lot.token });
      await api.patch(
        `/api/0.1/lots/${lot.id}`,
        { description: 'x' },
        { as: key, token: lot.token, tokenIn: 'header' },
      );
      await api.call('PATCH', `/api/0.1/lots/${lot.id}`, undefined, {
        as: key,
        raw: JSON.stringify({ data: { status: 'verification' }, access: { token: lot.token } }),
      });
      await api.call('GET', '/api/0.1/lots', undefined, { headers: { authorization: `Bearer ${key}` } });
      await api.call('PATCH', `/api/0.1/lots/${lot.id}?acc_token=${lot.token}`, undefined, {
        as: key,
        raw: '{not json',
      });
      await service.bot('concierge');
    });
    expect(raw.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(raw.includes(secret), 'a secret in the logs').toBe(false);
    // Each request line names the object it was about (the route's path parameters), never its token.
    const patches = lines.filter((l) => l.message === 'request' && l.route === 'PATCH /api/0.1/lots/{lotId}');
    expect(patches.length).toBeGreaterThan(0);
    for (const line of patches) expect(line.lotId).toBe(lotId);
  });

  it('gives each bot run its own correlation id and counts its transitions', async () => {
    await captured(async () => {
      const lot = await createLot(api);
      await api.patch(`/api/0.1/lots/${lot.id}`, { status: 'pending' }, { token: lot.token });
      await api.patch(`/api/0.1/lots/${lot.id}`, { status: 'verification' }, { token: lot.token });
    });
    const { lines } = await captured(async () => {
      await service.bot('concierge');
      await service.bot('concierge');
    });
    const runs = lines.filter((l) => l.message === 'bot run');
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ bot: 'concierge', changed: 1 });
    const [transition] = Object.keys(runs[0].transitions);
    expect(transition).toMatch(/^lot verification->\w+/);
    expect(runs[0].correlation_id).not.toBe(runs[1].correlation_id);
    expect(lines).toContainEqual(expect.objectContaining({ bot: 'concierge', transition, Transitions: 1 }));
    expect(lines).toContainEqual(expect.objectContaining({ bot: 'concierge', BotItemFailures: 0, Changed: 1 }));
    // The heartbeat: every completed run counts one BotRuns, whatever it did (the alarm fires on its absence).
    const heartbeats = lines.filter((l) => l.bot === 'concierge' && 'BotRuns' in l);
    expect(heartbeats.map((l) => l.BotRuns)).toEqual([1, 1]);
    expect(heartbeats[0]._aws.CloudWatchMetrics[0].Metrics).toContainEqual({ Name: 'BotRuns', Unit: 'Count' });
  });
});
