/** A small HTTP client for tests: Basic auth by key name, JSON in and out, the answer's status and headers kept. */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** DynamoDB requests the call made (reported by the local gateway). */
  requests: number;
}

export interface CallOptions {
  as?: string;
  token?: string;
  tokenIn?: 'query' | 'header';
  headers?: Record<string, string>;
  /** Raw body text (sent as is) instead of JSON. */
  raw?: string;
}

export function client(base: () => string) {
  async function call<T = any>(
    method: string,
    path: string,
    data?: unknown,
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.as !== undefined) headers.authorization = `Basic ${Buffer.from(`${options.as}:`).toString('base64')}`;
    let url = `${base()}${path}`;
    if (options.token) {
      if (options.tokenIn === 'header') headers['x-access-token'] = options.token;
      else url += `${url.includes('?') ? '&' : '?'}acc_token=${options.token}`;
    }
    let body: string | undefined = options.raw;
    if (data !== undefined) {
      body = JSON.stringify({ data });
      headers['content-type'] ??= 'application/json';
    } else if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return {
      status: res.status,
      headers: res.headers,
      body: parsed,
      requests: Number(res.headers.get('x-agora-dynamodb-requests') ?? NaN),
    };
  }
  return {
    call,
    get: <T = any>(path: string, o?: CallOptions) => call<T>('GET', path, undefined, { as: 'broker', ...o }),
    post: <T = any>(path: string, data: unknown, o?: CallOptions) =>
      call<T>('POST', path, data, { as: 'broker', ...o }),
    patch: <T = any>(path: string, data: unknown, o?: CallOptions) =>
      call<T>('PATCH', path, data, { as: 'broker', ...o }),
    put: <T = any>(path: string, data: unknown, o?: CallOptions) => call<T>('PUT', path, data, { as: 'broker', ...o }),
    del: <T = any>(path: string, o?: CallOptions) => call<T>('DELETE', path, undefined, { as: 'broker', ...o }),
  };
}
