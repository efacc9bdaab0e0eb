import { REVISION_ENTITY } from '../../functions/store/table-design.ts';
import { itemBytes } from './item-size.ts';

/**
 * What a measured call's DynamoDB requests consumed (the local gateway's `x-agora-capacity`: the bench's cost per
 * change, bench/costs.ts): each request that reports it is sent with `ReturnConsumedCapacity` and its units added up,
 * read and write (on demand: request units); the items its writes put are kept, so that the revisions are sized.
 * `INDEXES` rather than `TOTAL`: DynamoDB Local's total of a transaction leaves out its condition checks and index
 * writes, which its per-table and per-index figures count.
 */
export function capacityMeter(): { meter: Meter; headers: () => Record<string, string> } {
  const units = { read: 0, write: 0 };
  const puts: Record<string, unknown>[] = [];
  const meter: Meter = async (command, args, next) => {
    const kind = READS.test(command ?? '') ? 'read' : WRITES.test(command ?? '') ? 'write' : undefined;
    if (!command || !kind) return next(args);
    if (kind === 'write') puts.push(...itemsPut(command, args.input));
    const out = await next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'INDEXES' } });
    const consumed = out.output?.ConsumedCapacity;
    for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
      units[kind] += c.CapacityUnits ?? 0;
    return out;
  };
  const headers = () => {
    const revisions = puts.filter((i) => i.entity === REVISION_ENTITY);
    return {
      'x-agora-read-units': String(units.read),
      'x-agora-write-units': String(units.write),
      'x-agora-revisions': String(revisions.length),
      'x-agora-revision-bytes': String(revisions.reduce((n, i) => n + itemBytes(i), 0)),
    };
  };
  return { meter, headers };
}

/** The store client's `Meter` (functions/store/client.ts; lib/ imports no handler code, so its shape is repeated). */
type Meter = (command: string | undefined, args: { input: any }, next: (args: any) => Promise<any>) => Promise<any>;

/** The commands that report what they consume (the low-level names the client's middleware sees). */
const READS = /^(GetItem|Query|Scan|BatchGetItem|TransactGetItems)Command$/;
const WRITES = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

/** The items a write puts, in the document client's form (as the client's middleware sees its input). */
function itemsPut(command: string, input: any): Record<string, unknown>[] {
  if (command === 'PutItemCommand') return [input.Item];
  if (command === 'TransactWriteItemsCommand')
    return input.TransactItems.flatMap((t: any) => (t.Put ? [t.Put.Item] : []));
  if (command === 'BatchWriteItemCommand')
    return Object.values(input.RequestItems as Record<string, any[]>).flatMap((r) =>
      r.flatMap((w) => (w.PutRequest ? [w.PutRequest.Item] : [])),
    );
  return [];
}
