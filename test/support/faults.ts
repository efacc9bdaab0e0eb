import { expect } from 'vitest';

/**
 * Sets the faults the local service injects (`PUT /_local/faults`: lost answers, slowed writes...); `{}` clears
 * them. Answers the faults as the service holds them.
 */
export async function setFaults(serviceUrl: string, config: Record<string, unknown>) {
  const res = await fetch(`${serviceUrl}/_local/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}
