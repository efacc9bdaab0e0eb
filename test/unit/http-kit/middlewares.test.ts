import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ConflictError, DomainError, NotStoredError } from '../../../functions/domain/kernel/errors.ts';
import { httpHandler, pageHandler } from '../../../functions/http-kit/http-handler.ts';
import { admission } from '../../../functions/http-kit/middlewares/admission.ts';
import { authContext } from '../../../functions/http-kit/middlewares/auth-context.ts';
import { body, MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH } from '../../../functions/http-kit/middlewares/body.ts';
import { envelope } from '../../../functions/http-kit/middlewares/envelope.ts';
import { errors } from '../../../functions/http-kit/middlewares/errors.ts';
import { observability } from '../../../functions/http-kit/middlewares/observability.ts';
import { validation } from '../../../functions/http-kit/middlewares/validation.ts';
import { type RouteRule, registerRoutes } from '../../../functions/http-kit/route-rules.ts';
import type { Response } from '../../../functions/http-kit/types.ts';
import { correlationId } from '../../../functions/runtime/observability.ts';
import { BROKER, event, request, run } from './support.ts';

const RULES: RouteRule[] = [
  { key: 'GET /public', auth: 'public' },
  { key: 'GET /any', auth: 'any' },
  { key: 'POST /admin', auth: ['admin'] },
  { key: 'POST /lots', auth: ['broker'] },
  { key: 'POST /typed', auth: ['broker'], type: 'landlease' },
  { key: 'POST /upload', auth: ['broker'], body: 'binary' },
  { key: 'GET /v25', auth: 'any', location: 'path' },
  { key: 'GET /v23', auth: 'any', contentType: 'application/json; charset=UTF-8' },
  { key: '$default', auth: 'public' },
];
const rule = (key: string) => RULES.find((r) => r.key === key)!;

beforeAll(() => registerRoutes(RULES));

const statusOf = (error: unknown) => (error as DomainError).status;

describe('admission', () => {
  const admit = (key: string, lambda?: unknown) => {
    const req = request(event(key, { lambda }));
    return run(admission(), 'before', req).then((error) => ({ error, context: req.context }));
  };

  it('finds the route rule and the caller, and admits a key of a role the route names', async () => {
    const { error, context } = await admit('POST /lots', BROKER);
    expect(error).toBeUndefined();
    expect(context.rule).toEqual(rule('POST /lots'));
    expect(context.caller).toEqual(BROKER);
  });

  it('admits anyone on a public route, any key on an `any` route', async () => {
    expect((await admit('GET /public')).error).toBeUndefined();
    expect((await admit('GET /any', BROKER)).error).toBeUndefined();
  });

  it('answers 401 without a valid key, 403 to a key of another role', async () => {
    expect(statusOf((await admit('GET /any')).error)).toBe(401);
    expect(statusOf((await admit('GET /any', { name: 'x', role: 'root', levels: '' })).error)).toBe(401);
    expect(statusOf((await admit('POST /admin', BROKER)).error)).toBe(403);
  });

  it("answers the authorizer's refusals first, on public routes too: 503 when keys could not be read, 429 over the allowance", async () => {
    expect(statusOf((await admit('GET /public', { unavailable: '1' })).error)).toBe(503);
    // A write refused so was not stored: its 503 says so, as a write the store refused does.
    expect((await admit('POST /lots', { unavailable: '1' })).error).toBeInstanceOf(NotStoredError);
    expect((await admit('GET /public', { unavailable: '1' })).error).not.toBeInstanceOf(NotStoredError);
    const limited = (await admit('GET /any', { ...BROKER, retryAfter: '7' })).error;
    expect(statusOf(limited)).toBe(429);
    expect(limited).toMatchObject({ retryAfterSeconds: 7 });
  });

  it('fails loudly, not as a domain error, on a route this Lambda was not built for', async () => {
    const { error } = await admit('GET /elsewhere', BROKER);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DomainError);
  });
});

describe('body', () => {
  const parse = async (key: string, text: string | undefined, headers: Record<string, string> = {}) => {
    const req = request(event(key, { body: text, headers: { 'content-type': 'application/json', ...headers } }), {
      rule: rule(key),
    });
    const error = await run(body(), 'before', req);
    return { error, body: req.context.body };
  };

  it('parses the JSON body of a write and finds its data object', async () => {
    expect((await parse('POST /lots', '{"data":{"title":"x"}}')).body).toEqual({ data: { title: 'x' } });
  });

  it('reads no body on a read, a file upload or an unknown path', async () => {
    expect((await parse('GET /any', 'not json')).body).toBeUndefined();
    expect((await parse('POST /upload', 'raw bytes')).body).toBeUndefined();
    expect((await parse('$default', 'not json')).error).toBeUndefined();
  });

  it('answers 415 to another media type, 413 past the size limit', async () => {
    expect(statusOf((await parse('POST /lots', '{"data":{}}', { 'content-type': 'text/plain' })).error)).toBe(415);
    const big = JSON.stringify({ data: { text: 'x'.repeat(MAX_JSON_BODY_BYTES) } });
    expect(statusOf((await parse('POST /lots', big)).error)).toBe(413);
  });

  it('answers 422 to broken JSON, no data object, nesting too deep or a number DynamoDB cannot keep', async () => {
    expect(statusOf((await parse('POST /lots', '{"data":')).error)).toBe(422);
    expect((await parse('POST /lots', '{"title":"x"}')).error).toMatchObject({
      entries: [{ description: 'Data not available' }],
    });
    const deep = `{"data":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    expect(statusOf((await parse('POST /lots', deep)).error)).toBe(422);
    expect((await parse('POST /lots', '{"data":{"value":{"amount":1e300}}}')).error).toMatchObject({
      status: 422,
      entries: [{ name: 'value', description: ['Number is out of range.'] }],
    });
  });

  it('refuses `__proto__` and `constructor` members at any depth as rogue fields: never fields', async () => {
    const { error } = await parse('POST /lots', '{"data":{"__proto__":{"x":1},"title":"t","a":[{"constructor":"c"}]}}');
    expect(error).toMatchObject({
      status: 422,
      entries: [
        { location: 'body', name: '__proto__', description: ['Rogue field'] },
        { location: 'body', name: 'a', description: [{ constructor: ['Rogue field'] }] },
      ],
    });
  });
});

describe('auth context', () => {
  const principal = (query: Record<string, string> | undefined, headers: Record<string, string>, data?: unknown) => {
    const req = request(event('POST /lots', { queryStringParameters: query, headers }), {
      caller: { name: 'broker', role: 'broker', levels: '1234' },
      ...(data !== undefined && { body: { data: {}, access: data } as never }),
    });
    authContext().before!(req);
    return req.context.principal;
  };

  it("builds the principal from admission's caller", () => {
    expect(principal(undefined, {})).toEqual({ name: 'broker', role: 'broker', levels: '1234', token: undefined });
  });

  it('takes the owner token from acc_token, else X-Access-Token, else the body; never a token that is not a string', () => {
    expect(principal({ acc_token: 'q' }, { 'x-access-token': 'h' }, { token: 'b' })?.token).toBe('q');
    expect(principal(undefined, { 'x-access-token': 'h' }, { token: 'b' })?.token).toBe('h');
    expect(principal(undefined, {}, { token: 'b' })?.token).toBe('b');
    expect(principal(undefined, {}, { token: 42 })?.token).toBeUndefined();
  });
});

describe('validation', () => {
  it("loads the body validators of the route's type only for a request with a body", async () => {
    // This Lambda was built with no validators for landlease: asking for them fails loudly.
    registerRoutes(RULES, undefined, {});
    try {
      const typed = rule('POST /typed');
      expect(await run(validation(), 'before', request(event('POST /typed'), { rule: typed }))).toBeUndefined();
      const withBody = request(event('POST /typed'), { rule: typed, body: { data: {} } });
      expect(String(await run(validation(), 'before', withBody))).toMatch(/without body validators for "landlease"/);
    } finally {
      registerRoutes(RULES);
    }
  });
});

describe('envelope', () => {
  const answer = (key: string, result: object, token?: string) => {
    const req = request(event(key), { rule: rule(key), principal: { ...BROKER, role: 'broker', token } });
    req.response = result;
    envelope().after!(req);
    const response = req.response as Response;
    const json = response.isBase64Encoded || !response.body ? undefined : JSON.parse(String(response.body));
    return { ...response, json };
  };

  it('answers {data, ...extra, access} in the route media type, links made absolute', () => {
    const out = answer('GET /v23', {
      data: { url: '/api/docservice/get/k', other: { url: 'https://elsewhere.example/x' } },
      extra: { next_page: { offset: '1' } },
    });
    expect(out.statusCode).toBe(200);
    expect(out.headers).toMatchObject({ 'content-type': 'application/json; charset=UTF-8' });
    expect(out.json).toEqual({
      data: { url: 'https://api.example.org/api/docservice/get/k', other: { url: 'https://elsewhere.example/x' } },
      next_page: { offset: '1' },
    });
  });

  it('answers Location absolute, or as a path where the route says so, and keeps tokens out of caches', () => {
    const created = answer('GET /any', { status: 201, data: {}, location: '/api/x/1', access: { token: 't' } });
    expect(created.statusCode).toBe(201);
    expect(created.headers).toMatchObject({ location: 'https://api.example.org/api/x/1', 'cache-control': 'no-store' });
    expect(created.json.access).toEqual({ token: 't' });
    expect(answer('GET /v25', { data: {}, location: '/api/x/1' }).headers?.location).toBe('/api/x/1');
    expect(answer('GET /any', { data: {} }, 'owner token').headers).toMatchObject({ 'cache-control': 'no-store' });
    expect(answer('GET /any', { data: {} }).headers).not.toHaveProperty('cache-control');
  });

  it('answers a redirect as a 302 and a file as its bytes', () => {
    expect(answer('GET /any', { redirect: 'https://files.example/k' })).toMatchObject({
      statusCode: 302,
      headers: { location: 'https://files.example/k' },
    });
    const file = answer('GET /any', { file: { bytes: new Uint8Array([1, 2]), contentType: 'application/pdf' } });
    expect(file).toMatchObject({ statusCode: 200, isBase64Encoded: true, body: 'AQI=' });
  });

  it('indents with opt_pretty only within what a function may answer, and never answers more than that', () => {
    const pretty = (data: unknown) => {
      const req = request(event('GET /any', { queryStringParameters: { opt_pretty: '1' } }), {
        rule: rule('GET /any'),
        principal: { ...BROKER, role: 'broker' },
      });
      req.response = { data };
      envelope().after!(req);
      return String((req.response as Response).body);
    };
    expect(pretty([[1]])).toBe(JSON.stringify({ data: [[1]] }, null, 2));
    // 1.8 MB compact, about 14 MB indented: answered compact.
    const deep = Array.from({ length: 300_000 }, () => [[1]]);
    expect(pretty(deep)).toBe(JSON.stringify({ data: deep }));
    // 4.5 MB of empty strings is 7.5 MB as the function answers it (each escaped once more): an error in the envelope.
    expect(() => pretty(Array.from({ length: 1_500_000 }, () => ''))).toThrow(/larger than 6000000 bytes/);
  });
});

describe('errors', () => {
  const fail = (error: unknown, key = 'GET /any') => {
    const req = request(event(key), { rule: rule(key) });
    req.error = error as Error;
    errors().onError!(req);
    const response = req.response as Response;
    return { ...response, json: JSON.parse(String(response.body)) };
  };

  it('answers a domain error with its status and entries in the error envelope', () => {
    const out = fail(new ConflictError('changed meanwhile'), 'GET /v23');
    expect(out.statusCode).toBe(412);
    expect(out.headers).toMatchObject({ 'content-type': 'application/json; charset=UTF-8' });
    expect(out.json).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'data', description: 'changed meanwhile' }],
    });
  });

  it('answers a passing database fault 503, retryable, and anything else a 500 that tells nothing', () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    const unavailable = fail(throttled);
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.headers).toHaveProperty('retry-after');
    // Logged as `unhandled` (kept off the test's output).
    const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const crash = fail(new TypeError('secret internals'));
    quiet.mockRestore();
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain('secret');
  });
});

describe('observability', () => {
  it('returns the correlation id on every answer: the client one when it is a plain token, else the request id', async () => {
    const close = async (headers: Record<string, string>) => {
      const req = request(event('GET /any', { headers }));
      observability().before!(req);
      req.response = { statusCode: 204 };
      await observability().after!(req);
      return (req.response as Response).headers?.['x-correlation-id'];
    };
    expect(await close({ 'x-correlation-id': 'client-trace-0001' })).toBe('client-trace-0001');
    expect(await close({ 'x-correlation-id': 'not a token!' })).toBe('api-gateway-request-id');
  });

  it('keeps concurrent requests apart: each logs under its own correlation id through the whole stack', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const handler = httpHandler(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { data: { id: correlationId() } };
      });
      const call = (id: string) =>
        handler(event('GET /any', { lambda: BROKER, headers: { 'x-correlation-id': id } }), {} as never);
      const [a, b] = await Promise.all([call('request-aaaa'), call('request-bbbb')]);
      expect(JSON.parse(String(a.body)).data.id).toBe('request-aaaa');
      expect(JSON.parse(String(b.body)).data.id).toBe('request-bbbb');
      expect(a.headers?.['x-correlation-id']).toBe('request-aaaa');
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('pageHandler', () => {
  it("answers a page's own answer with the correlation id, and a failure in the error envelope, never thrown", async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const page = pageHandler(async () => ({ statusCode: 303, headers: { location: '/there' }, body: '' }));
      const answer = await page(
        event('GET /public', { headers: { 'x-correlation-id': 'page-trace-0001' } }),
        {} as never,
      );
      expect(answer).toEqual({
        statusCode: 303,
        headers: { location: '/there', 'x-correlation-id': 'page-trace-0001' },
        body: '',
      });
      const broken = pageHandler(async () => {
        throw new TypeError('secret internals');
      });
      const failed = await broken(event('GET /public'), {} as never);
      expect(failed.statusCode).toBe(500);
      expect(JSON.parse(String(failed.body))).toEqual({
        status: 'error',
        errors: [{ location: 'body', name: 'data', description: 'Internal server error' }],
      });
      // Admission applies: a page of a route that needs a key is refused without one.
      expect((await page(event('GET /any'), {} as never)).statusCode).toBe(401);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
