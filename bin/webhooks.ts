import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { verify, verifyV1a } from '../functions/domain/webhooks/signature.ts';
import { answerHelp } from '../lib/cli-help.ts';
import { serviceUrl } from './local-service.ts';

/**
 * `npm run webhooks -- listen [--forward <url>] [--events <pattern,...>] [--key <api key>] [--signature v1|v1a]`: a
 * receiver on this machine for the running service's webhooks. It subscribes (as `broker` by default, to every event;
 * `v1` HMAC signatures by default, `v1a` Ed25519 checked with the subscription's public key alone), prints each
 * delivery and whether its signature verifies, forwards it (headers and body as received) to `--forward` and answers what that
 * answered; Ctrl-C deletes the subscription.
 */
const USAGE =
  'usage: npm run webhooks -- listen [--forward <url>] [--events lot.*,auction.updated] [--key broker] [--signature v1|v1a]';
answerHelp(
  'Subscribes a receiver on this machine to the running npm start (AGORA_URL, else .agora/local.json): prints each webhook and whether its signature verifies, forwards it with --forward; Ctrl-C unsubscribes.',
  USAGE,
);
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    forward: { type: 'string' },
    events: { type: 'string', default: '*' },
    key: { type: 'string', default: 'broker' },
    signature: { type: 'string', default: 'v1' },
  },
});
if (positionals[0] !== 'listen' || !['v1', 'v1a'].includes(values.signature)) {
  console.error(USAGE);
  process.exit(2);
}
const base = serviceUrl();
const auth = { authorization: `Basic ${Buffer.from(`${values.key}:`).toString('base64')}` };
/** What checks a webhook: the `whsec_` secret (v1) or the `whpk_` public key (v1a) the subscription's answer gave. */
let verifies: (id: string, timestamp: number, body: string, header: string) => boolean = () => false;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks).toString();
    const id = String(req.headers['webhook-id']);
    const timestamp = Number(req.headers['webhook-timestamp']);
    const signed = verifies(id, timestamp, body, String(req.headers['webhook-signature'] ?? ''));
    console.log(
      `${new Date().toISOString()} ${id} ${signed ? 'signature ok' : 'SIGNATURE DOES NOT VERIFY'}\n  ${body}`,
    );
    if (!values.forward) return void res.writeHead(signed ? 204 : 400).end();
    try {
      const headers = Object.fromEntries(
        ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [
          h,
          String(req.headers[h]),
        ]),
      );
      const answer = await fetch(values.forward, { method: 'POST', headers, body, redirect: 'manual' });
      console.log(`  -> ${values.forward}: ${answer.status}`);
      res.writeHead(answer.status).end(await answer.text());
    } catch (error) {
      console.log(`  -> ${values.forward}: ${(error as Error).message}`);
      res.writeHead(502).end();
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
const created = await fetch(`${base}/api/0.1/subscriptions`, {
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({
    data: {
      url,
      events: values.events.split(','),
      description: 'npm run webhooks -- listen',
      ...(values.signature === 'v1a' && { signature: 'v1a' }),
    },
  }),
}).catch((error: Error) => ({ ok: false, status: 0, text: async () => error.message }) as const);
if (!created.ok) {
  console.error(`${base} refused the subscription (${created.status}): ${(await created.text()).slice(0, 300)}`);
  process.exit(1);
}
const { data, access } = (await (created as Response).json()) as {
  data: { id: string; publicKey?: string };
  access: { token: string; secret?: string };
};
const { publicKey } = data;
const { secret } = access;
verifies = publicKey
  ? (id, timestamp, body, header) => verifyV1a(publicKey, id, timestamp, body, header)
  : (id, timestamp, body, header) => verify(secret ?? '', id, timestamp, body, header);
console.log(
  `Listening on ${url} for ${values.events} of ${base} (subscription ${data.id}, ${publicKey ? `v1a, public key ${publicKey}` : 'v1'}); Ctrl-C to stop.`,
);
const stop = async () => {
  await fetch(`${base}/api/0.1/subscriptions/${data.id}?acc_token=${access.token}`, {
    method: 'DELETE',
    headers: auth,
  });
  server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
