import { instrumentClient } from '#store/client.ts';
import { traceClient } from '#store/xray.ts';

/**
 * The one place the runtime wires configuration into the layers below, called by the request stack and each bot run
 * (not by the authorizer, whose DynamoDB calls stay untraced): the store client's tracer (an X-Ray subsegment per
 * DynamoDB call in Lambda; elsewhere the middleware passes calls through). The domain gets its configuration (the
 * working-day calendar: runtime/calendar.ts) as arguments, never wired in here.
 */
let wired = false;
export function wireRuntime(): void {
  if (wired) return;
  wired = true;
  instrumentClient((raw) => traceClient(raw, 'DynamoDB'));
}
