/** True when DynamoDB refused a write because a condition failed (single write or inside a transaction). */
export function isConditionFailure(error: unknown): boolean {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name === 'ConditionalCheckFailedException') return true;
  return e?.name === 'TransactionCanceledException' && !!e.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed');
}
