import { ForbiddenError, UnprocessableError } from './errors.ts';
import type { JsonRecord } from './objects.ts';

/**
 * A status machine as data, transcribed from upstream STATUS_CHANGES: for each status, who may PATCH the object
 * at all, and which target statuses each role may set.
 */
export type StatusGraph<S extends string, R extends string> = Record<
  S,
  { editableBy: readonly R[]; next: Partial<Record<S, readonly R[]>> }
>;

/** Refuses a PATCH whose role may not edit in this status (upstream text, `noun` = lot | asset | auction). */
export function assertEditable<S extends string, R extends string>(
  graph: StatusGraph<S, R>,
  status: S,
  role: string,
  noun: string,
): void {
  if (!graph[status]?.editableBy.includes(role as R)) {
    throw new ForbiddenError(`Can't update ${noun} in current (${status}) status`);
  }
}

/** Refuses a status change the graph does not allow for this role. Same status is a no-op, as upstream. */
export function assertTransition<S extends string, R extends string>(
  graph: StatusGraph<S, R>,
  from: S,
  to: unknown,
  role: string,
  noun: string,
): void {
  if (typeof to !== 'string') throw notOneOf(Object.keys(graph));
  if (to === from) return;
  if (to === 'draft') throw new ForbiddenError(`Can't switch ${noun} to draft status`);
  const allowed = graph[from]?.next[to as S];
  if (!allowed?.includes(role as R)) {
    throw new ForbiddenError(`Can't update ${noun} in current (${from}) status`);
  }
}

export const statusesOf = <S extends string, R extends string>(graph: StatusGraph<S, R>): S[] =>
  Object.keys(graph) as S[];

const notOneOf = (choices: readonly string[]) =>
  UnprocessableError.field('status', `Value must be one of [${choices.map((s) => `'${s}'`).join(', ')}].`);

/** Whether `value` is one of `choices`, telling the compiler so. */
export const isOneOf = <T extends string>(choices: readonly T[], value: string): value is T =>
  (choices as readonly string[]).includes(value);

/**
 * The `status` a PATCH asks for, read before it reaches any refusal text: a status that is no string (an object whose
 * `toString` is not a function cannot even be put into a message) is a 422 naming the choices.
 */
export function requestedStatus(data: JsonRecord, choices: readonly string[]): string | undefined {
  const status = data.status;
  if (status === undefined || typeof status === 'string') return status;
  throw notOneOf(choices);
}
