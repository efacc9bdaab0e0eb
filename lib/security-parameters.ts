import type { Node } from 'constructs';
import { contextReader, ParameterError } from './parameters.ts';

/**
 * The security parameters of a deployment, from CDK context like lib/parameters.ts (kept apart so each file stays small):
 *
 * | context               | default               | meaning                                                          |
 * |-----------------------|-----------------------|------------------------------------------------------------------|
 * | `publicBaseUrl`       | the API's own URL     | the base of every absolute link (Location, next_page, documents)  |
 * | `keyRate`             | `20`                  | requests per second one API key may make, sustained (0: no limit) |
 * | `keyBurst`            | `2 × keyRate`         | requests one API key may make at once                             |
 * | `authFailureThreshold`| `100`                 | 401/403 answers in 5 minutes that raise the auth-failure alarm    |
 * | `throttleThreshold`   | `50`                  | 429 answers in 5 minutes that raise the throttle alarm            |
 * | `botConcurrency`      | `1`                   | reserved concurrency of each bot (0: none reserved)               |
 * | `readsNeedKey`        | `false`               | reads of public data need an API key too (AGORA_READS_NEED_KEY)   |
 */
export interface SecurityParameters {
  publicBaseUrl?: string;
  keyRate: number;
  keyBurst: number;
  authFailureThreshold: number;
  throttleThreshold: number;
  botConcurrency: number;
  /** Reads of public data (routes.ts `read`) need a key: AGORA_READS_NEED_KEY on their functions. */
  readsNeedKey: boolean;
}

export const SECURITY_DEFAULTS = {
  keyRate: 20,
  authFailureThreshold: 100,
  throttleThreshold: 50,
  botConcurrency: 1,
  readsNeedKey: false,
} as const;

export function securityParameters(node: Node): SecurityParameters {
  const { raw, number } = contextReader(node);
  const base = raw('publicBaseUrl');
  if (base !== undefined && (typeof base !== 'string' || !/^https:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(base))) {
    throw new ParameterError(
      `context publicBaseUrl: expected an https URL without query (https://api.example.org), got ${JSON.stringify(base)}`,
    );
  }
  const keyRate = number('keyRate', SECURITY_DEFAULTS.keyRate, 0);
  const readsNeedKey = String(raw('readsNeedKey') ?? SECURITY_DEFAULTS.readsNeedKey);
  if (readsNeedKey !== 'true' && readsNeedKey !== 'false')
    throw new ParameterError(`context readsNeedKey: true or false, got ${JSON.stringify(raw('readsNeedKey'))}`);
  return {
    publicBaseUrl: (base as string | undefined)?.replace(/\/+$/, ''),
    keyRate,
    keyBurst: Math.round(number('keyBurst', Math.max(1, keyRate * 2), 1)),
    authFailureThreshold: number('authFailureThreshold', SECURITY_DEFAULTS.authFailureThreshold, 1),
    throttleThreshold: number('throttleThreshold', SECURITY_DEFAULTS.throttleThreshold, 1),
    botConcurrency: Math.round(number('botConcurrency', SECURITY_DEFAULTS.botConcurrency, 0)),
    readsNeedKey: readsNeedKey === 'true',
  };
}
