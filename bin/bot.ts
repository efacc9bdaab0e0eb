/**
 * `npm run bot -- <name>`: runs one bot once inside the running `npm start` (through its local-only
 * `/_local/bots/<name>` endpoint, so it uses the same table and DynamoDB Local) and prints its report.
 */
const name = process.argv[2];
const base = process.env.AGORA_URL ?? `http://127.0.0.1:${process.env.PORT ?? 6543}`;
if (!name) {
  console.error('usage: npm run bot -- <concierge|convoy|chronograph>');
  process.exit(2);
}
try {
  const res = await fetch(`${base}/_local/bots/${name}`, { method: 'POST' });
  console.log(JSON.stringify(await res.json(), null, 2));
  process.exit(res.ok ? 0 : 1);
} catch {
  console.error(`Nothing answers on ${base}: start the service with \`npm start\` first.`);
  process.exit(1);
}
