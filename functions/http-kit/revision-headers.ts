import type { ChainHead } from '#domain/kernel/history.ts';

/**
 * The head of an object's change log as two headers of its GET: the number and the hash of its last revision (what
 * `GET .../revisions` serves last). A platform keeps them as its anchor: `npm run history -- verify <url> --anchor
 * <n>:<hash>` then fails when the history served later does not lead through it (a rewrite, however consistent).
 * An object older than the log has no head, and no headers.
 */
export const revisionHeaders = (head: ChainHead | undefined): Record<string, string> =>
  head ? { 'x-revision': String(head.seq), 'x-revision-hash': head.hash } : {};
