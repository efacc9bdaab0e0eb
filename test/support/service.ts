import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { seedDevKeys } from '../../bin/dev-keys.ts';
import { seedDevOrganizations } from '../../bin/dev-organizations.ts';
import { startGateway, type Gateway } from '../../lib/local/gateway.ts';
import { type ChangeStream, startChangeStream } from '../../lib/local/change-stream.ts';
import { createTable } from '../../lib/local/table.ts';
import { localRuntime, resetConfig, setLocal } from '../../functions/platform/config.ts';

/**
 * A running service for one test file: its own table in the run's DynamoDB Local, the dev keys, and the local
 * gateway on a free port. Tests talk to it over real HTTP only.
 */
export interface Service {
  url: string;
  /** The same service over TLS (the gateway's TLS port) and the certificate that port shows (PEM). */
  tls: { url: string; certificate: string };
  /** Runs a bot once through the gateway's local-only endpoint. */
  bot(name: string): Promise<{ bot: string; due: number; changed: number }>;
  /** Shifts the service clock (local only) by this many milliseconds from real time. */
  setClockOffset(ms: number): Promise<void>;
  /**
   * Resolves once the journal has taken every change written before the call (a `journal: true` service): then the
   * listings and the change feed show them. Else it resolves at once.
   */
  journaled(): Promise<void>;
  /** Hands the journal's set-aside records to it again (an SQS dead-letter redrive) and waits until it took them. */
  redriveJournal(): Promise<void>;
}

export interface ServiceOptions {
  /** A table with the change stream the webhooks read (lib/local/change-stream.ts); others have none (table.ts). */
  changeStream?: boolean;
  /**
   * The change stream and the local pipe that reads it into the journal, as `npm start` runs them: what a file that
   * reads the listings needs (they read the journal). `service.journaled()` waits for it.
   */
  journal?: boolean;
}

export function useService(options: ServiceOptions = {}): Service {
  let gateway: Gateway;
  let pipe: ChangeStream | undefined;
  const service: Service = {
    url: '',
    tls: { url: '', certificate: '' },
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
    journaled: async () => pipe?.drained(),
    async redriveJournal() {
      pipe?.redrive();
      await pipe?.drained();
    },
  };
  beforeAll(async () => {
    process.env.TABLE_NAME = `t_${randomBytes(6).toString('hex')}`;
    resetConfig(); // this file's table: the runtime reads its config afresh
    const stream = options.changeStream || options.journal;
    await createTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME, { stream });
    await seedDevKeys();
    await seedDevOrganizations();
    gateway = await startGateway();
    service.url = gateway.url;
    service.tls = { url: gateway.tls.url, certificate: gateway.tls.certificate };
    if (options.journal)
      pipe = await startChangeStream({
        endpoint: process.env.DYNAMODB_ENDPOINT!,
        table: process.env.TABLE_NAME,
        intervalMs: 50,
      });
  });
  afterAll(async () => {
    await pipe?.stop();
    if (localRuntime()) setLocal({ clockOffsetMs: 0 });
    await gateway?.close();
  });
  return service;
}
