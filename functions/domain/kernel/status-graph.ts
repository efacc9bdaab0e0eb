import { ForbiddenError, UnprocessableError } from './errors.ts';
import { isOneOf, keysOf, type JsonRecord } from './objects.ts';

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
  if (!graph[status]?.editableBy.some((r) => r === role)) {
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
  const allowed = isOneOf(statusesOf(graph), to) ? graph[from]?.next[to] : undefined;
  if (!allowed?.some((r) => r === role)) {
    throw new ForbiddenError(`Can't update ${noun} in current (${from}) status`);
  }
}

export const statusesOf = <S extends string, R extends string>(graph: StatusGraph<S, R>): S[] => keysOf(graph);

const notOneOf = (choices: readonly string[]) =>
  UnprocessableError.field('status', `Value must be one of [${choices.map((s) => `'${s}'`).join(', ')}].`);

/**
 * The `status` a PATCH asks for, read before it reaches any refusal text: a status that is no string (an object whose
 * `toString` is not a function cannot even be put into a message) is a 422 naming the choices.
 */
export function requestedStatus(data: JsonRecord, choices: readonly string[]): string | undefined {
  const status = data.status;
  if (status === undefined || typeof status === 'string') return status;
  throw notOneOf(choices);
}
