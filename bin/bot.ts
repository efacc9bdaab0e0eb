import { bots } from '../functions/bots.ts';
import { roomLambdas } from '../functions/room/lambdas.ts';
import { serviceUrl } from './local-service.ts';
import { answerHelp } from '../lib/cli-help.ts';

/**
 * `npm run bot -- <name>`: runs one bot once inside the running `npm start` (through its local-only
 * `/_local/bots/<name>` endpoint, so it uses the same table and DynamoDB Local) and prints its report.
 * The service: AGORA_URL, else the one `npm start` wrote in .agora/local.json.
 */
const name = process.argv[2];
// The auction room's bot has its own stack (functions/room/lambdas.ts); the gateway runs it as `room`.
const names = [...bots.map((b) => b.name), ...(roomLambdas.some((l) => l.kind === 'bot') ? ['room'] : [])];
answerHelp(
  'Runs one bot once inside the running npm start (AGORA_URL, else .agora/local.json) and prints its report.',
  `usage: npm run bot -- <${names.join('|')}>`,
);
if (!name || !names.includes(name)) {
  console.error(
    `${name ? `unknown bot ${JSON.stringify(name)}` : 'which bot?'}: one of ${names.join(', ')}\nusage: npm run bot -- <${names.join('|')}>`,
  );
  process.exit(2);
}
const base = serviceUrl();
try {
  const res = await fetch(`${base}/_local/bots/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  const body = await res.text();
  if (!res.ok) {
    console.error(`${base} answered ${res.status} to running ${name}: ${body.slice(0, 300)}`);
    process.exit(1);
  }
  console.log(JSON.stringify(JSON.parse(body), null, 2));
} catch {
  console.error(`Nothing answers on ${base}: start the service with \`npm start\` first (or set AGORA_URL).`);
  process.exit(1);
}
