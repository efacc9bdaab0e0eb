/**
 * `npm start`'s human log format: the JSON log lines of the handlers and bots (unchanged in AWS) as one short
 * line each, stamped in Kyiv time like the data. `LOG_FORMAT=json` keeps the JSON.
 *
 *   12:04:05 200 GET /api/0.1/lots 12ms broker  [c0ffee12]
 *   12:04:07 bot convoy: due 2, changed 1 (claim 1)  [0a1b2c3d]
 */
const KYIV = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Kyiv',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
/** Keys every line carries (or that say nothing to a person at a terminal). */
const NOISE = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'sampling_rate',
  'xray_trace_id',
  'correlation_id',
  'route',
  'function_name',
  'function_request_id',
  'requestId',
  'cold_start',
  'function_arn',
  'function_memory_size',
]);

type Line = Record<string, unknown>;

const time = (line: Line) => KYIV.format(typeof line.timestamp === 'string' ? new Date(line.timestamp) : new Date());
const short = (id: unknown) => (typeof id === 'string' ? `  [${id.slice(0, 8)}]` : '');
const rest = (line: Line, skip: string[] = []) => {
  const extra = Object.entries(line).filter(([k]) => !NOISE.has(k) && !skip.includes(k));
  return extra.length
    ? ` ${extra.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ')}`
    : '';
};

/** One JSON log line as a short human line; anything that is not a log line (an EMF document...) comes back as it was. */
export function humanLogLine(text: string): string {
  let line: Line;
  try {
    line = JSON.parse(text);
  } catch {
    return text;
  }
  if (!line || typeof line !== 'object' || typeof line.message !== 'string' || typeof line.level !== 'string')
    return text;
  if (line.message === 'request') {
    const latency = typeof line.latencyMs === 'number' ? ` ${Math.round(line.latencyMs)}ms` : '';
    const caller =
      line.caller === line.role || line.role === undefined ? String(line.caller) : `${line.caller} (${line.role})`;
    return `${time(line)} ${line.status} ${line.route ?? ''}${latency} ${caller}${rest(line, ['status', 'latencyMs', 'caller', 'role'])}${short(line.correlation_id)}`;
  }
  if (line.message.startsWith('bot run')) {
    const transitions =
      line.transitions && typeof line.transitions === 'object'
        ? Object.entries(line.transitions as Record<string, number>)
        : [];
    const moved = transitions.length ? ` (${transitions.map(([k, n]) => `${k} ${n}`).join(', ')})` : '';
    const failed = line.failed ? `, FAILED ${line.failed}` : '';
    return `${time(line)} bot ${line.bot}: due ${line.due}, changed ${line.changed}${failed}${moved}${short(line.correlation_id)}`;
  }
  const level = line.level === 'INFO' ? '' : `${line.level} `;
  return `${time(line)} ${level}${line.message}${rest(line)}${short(line.correlation_id)}`;
}

/** Rewrites the JSON lines a stream gets (process.stdout under `npm start`) into human lines. */
export function humanizeStream(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.startsWith('{')) return write(chunk, ...rest);
    const out = text
      .split('\n')
      .map((l) => (l ? humanLogLine(l) : l))
      .join('\n');
    return write(out, ...rest);
  }) as typeof stream.write;
}
