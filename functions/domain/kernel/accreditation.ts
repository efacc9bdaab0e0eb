import { ForbiddenError } from './errors.ts';
import type { Principal } from './principal.ts';

/**
 * Upstream accreditation: a broker key carries levels (`1234` by default, `t` for test-only brokers).
 * Creating needs the type's level; a test-only broker may create only with `mode: "test"`.
 */
export function assertAccreditation(principal: Principal, level: string, noun: string, mode: unknown): void {
  if (!principal.levels.includes(level)) {
    throw new ForbiddenError(`Broker Accreditation level does not permit ${noun} creation`, 'accreditation');
  }
  if (principal.levels.includes('t') && mode !== 'test') {
    throw new ForbiddenError(`Broker Accreditation level does not permit ${noun} creation`, 'mode');
  }
}
