/**
 * DynamoDB errors that pass by themselves (throttling, an internal error, a timeout, a transaction cancelled for one
 * of those): a 503 the client may retry, never a 500. Conditions that failed are the store's own business (412/409).
 * The HTTP kit answers them 503; the store first sends a write that met one again (store/aggregates.ts writeChange).
 */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
  'TransactionInProgressException',
]);
export function isTransient(error: unknown): boolean {
  const e = error as {
    name?: string;
    $metadata?: { httpStatusCode?: number };
    CancellationReasons?: { Code?: string }[];
  };
  if (e?.name === 'TransactionCanceledException') {
    return !!e.CancellationReasons?.some((r) => r.Code === 'ThrottlingError' || r.Code === 'TransactionConflict');
  }
  return TRANSIENT.has(e?.name ?? '') || (e?.$metadata?.httpStatusCode ?? 0) >= 500;
}
