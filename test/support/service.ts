import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { seedDevKeys } from '../../bin/dev-keys.ts';
import { seedDevOrganizations } from '../../bin/dev-organizations.ts';
import { startGateway, type Gateway } from '../../lib/local/gateway.ts';
import { createTable } from '../../lib/local/table.ts';
import { localRuntime, resetConfig, setLocal } from '../../functions/runtime/config.ts';

/**
 * A running service for one test file: its own table in the run's DynamoDB Local, the dev keys, and the local
 * gateway on a free port. Tests talk to it over real HTTP only.
 */
export interface Service {
  url: string;
  /** Runs a bot once through the gateway's local-only endpoint. */
  bot(name: string): Promise<{ bot: string; due: number; changed: number }>;
  /** Shifts the service clock (local only) by this many milliseconds from real time. */
  setClockOffset(ms: number): Promise<void>;
}

export interface ServiceOptions {
  /** The feeds' settle window (the tests run without one: test/support/setup-env.ts). */
  feedSettleMs?: number;
  /** A table with the change stream the webhooks read (lib/local/change-stream.ts); others have none (table.ts). */
  changeStream?: boolean;
}

export function useService(options: ServiceOptions = {}): Service {
  let gateway: Gateway;
  const service: Service = {
    url: '',
    async bot(name) {
      const res = await fetch(`${service.url}/_local/bots/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      return (await res.json()).data;
    },
    async setClockOffset(ms) {
      await fetch(`${service.url}/_local/clock`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ offsetMs: ms }),
      });
    },
  };
  beforeAll(async () => {
    process.env.TABLE_NAME = `t_${randomBytes(6).toString('hex')}`;
    resetConfig(); // this file's table: the runtime reads its config afresh
    await createTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME, { stream: options.changeStream });
    await seedDevKeys();
    await seedDevOrganizations();
    gateway = await startGateway();
    service.url = gateway.url;
    if (options.feedSettleMs !== undefined) setLocal({ feedSettleMs: options.feedSettleMs });
  });
  afterAll(async () => {
    if (localRuntime()) setLocal({ clockOffsetMs: 0, feedSettleMs: undefined });
    await gateway?.close();
  });
  return service;
}
