import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Aggregate, AggregateRepository } from '#domain/kernel/aggregate.ts';
import { DomainError, ServiceUnavailableError, UnprocessableError } from '#domain/kernel/errors.ts';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import { AlreadyCreatedError, NotStoredError, OutcomeUnknownError } from '#store/errors.ts';
import { keepIdempotencyRecord, readIdempotencyRecord } from '#store/idempotency.ts';
import { log } from './observability.ts';
import { isTransient } from '#platform/transient.ts';

/**
 * Idempotent creates (issue 27), as payment APIs do them: a create sent with an `Idempotency-Key` header is made at
 * most once per key, caller (API key name) and path, and the same request sent again gets the first answer: the same
 * status, object, Location and `access` tokens, so a client whose answer was lost retries without making a duplicate.
 *
 * - The object's id is derived from the key (a hash of caller, path and key): two requests with one key, even at the
 *   same moment, write the same root item, and DynamoDB's `attribute_not_exists` lets only one of them in.
 * - The first answer is kept for 24 hours in its own item, encrypted (AES-256-GCM) with a key derived from the
 *   Idempotency-Key itself, which the service never stores (the item's key is another hash of it): the tokens stay
 *   unreadable to anyone who reads the table, and are given again only to the caller that sends the same key, as
 *   the first answer gave them. A key should therefore be as hard to guess as a token (a UUID v4).
 * - The same key with another request body: 422. A second request while the first is still being answered waits
 *   for that answer; if none is kept (after 24 hours, or the first request died between its write and its answer),
 *   409: the object exists, its id is in the answer's description, and no duplicate is made.
 */
export interface CreateAnswer {
  status?: number;
  data?: unknown;
  access?: JsonRecord;
  location?: string;
}

/** What of a request the scope of its key is made of (an HttpRequest of the kit has all of it). */
export interface CreateRequest {
  /** The request's headers: `idempotency-key`, if sent. */
  headers: Record<string, string | undefined>;
  /** The caller: its API key name. */
  principal: { name: string };
  /** The create's path (`/api/0.1/lots`). */
  path: string;
  data: JsonRecord;
}

const KEPT_SECONDS = 24 * 3600;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest();

function checkedKey(key: string): string {
  if (!KEY_FORMAT.test(key))
    throw new UnprocessableError({
      location: 'header',
      name: 'Idempotency-Key',
      description: 'Expecting 1 to 255 visible ASCII characters (a UUID, for example)',
    });
  return key;
}

function seal(answer: CreateAnswer, secret: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const body = Buffer.concat([cipher.update(deflateRawSync(JSON.stringify(answer))), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function unseal<A>(sealed: string, secret: Buffer): A {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', secret, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(inflateRawSync(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()])).toString());
}

/** What a 503 of a create sent with an Idempotency-Key tells the client: its key makes the retry safe either way. */
const SEND_AGAIN_WITH_KEY =
  'Service temporarily unavailable: send the request again with the same Idempotency-Key; it answers the object as stored if it was stored';

/**
 * Runs `create` once per Idempotency-Key (with the id derived from it), or answers the first answer again. A passing
 * database failure is answered 503 with what to do. The write itself leaves its outcome unknown only when DynamoDB
 * answers nothing at all (OutcomeUnknownError): the store sends it again and, when no answer came, reads whether it
 * was stored (store/aggregates.ts writeChange), and answers "not stored" itself. So a raw database error that reaches
 * here failed a read or a counter before the write: nothing was stored. With a key, the client sends it again with that key (another request with it may be making
 * the object: its answer is given then).
 */
export async function idempotentCreate<A extends CreateAnswer>(
  request: CreateRequest,
  create: (id?: string) => Promise<A>,
): Promise<A> {
  const keyed = request.headers['idempotency-key'] !== undefined;
  try {
    return await createOnce(request, create);
  } catch (error) {
    if (keyed && error instanceof OutcomeUnknownError) throw new ServiceUnavailableError(1, SEND_AGAIN_WITH_KEY);
    if (error instanceof DomainError || !isTransient(error)) throw error;
    const cause = error as Error;
    log().warn('create: database unavailable before the write', { errorName: cause.name, errorMessage: cause.message });
    throw keyed ? new ServiceUnavailableError(1, SEND_AGAIN_WITH_KEY) : new NotStoredError();
  }
}

async function createOnce<A extends CreateAnswer>(
  request: CreateRequest,
  create: (id?: string) => Promise<A>,
): Promise<A> {
  const sentKey = request.headers['idempotency-key'];
  if (sentKey === undefined) return create();
  const key = checkedKey(sentKey);
  const caller = request.principal.name;
  const scope = hash('idempotency scope', caller, request.path, key).toString('hex');
  const secret = hash('idempotency seal', caller, request.path, key);
  const sent = hash('idempotency request', JSON.stringify(request.data)).toString('hex');
  const id = hash('idempotency object', scope).toString('hex').slice(0, 32);

  const firstAnswer = async (): Promise<A | undefined> => {
    const record = await readIdempotencyRecord(scope);
    if (!record) return undefined;
    if (record.request !== sent)
      throw new UnprocessableError({
        location: 'header',
        name: 'Idempotency-Key',
        description: 'This Idempotency-Key was used with another request',
      });
    return unseal<A>(record.sealed, secret);
  };

  const kept = await firstAnswer();
  if (kept) return kept;
  let answer: A;
  try {
    answer = await create(id);
  } catch (error) {
    if (!(error instanceof AlreadyCreatedError)) throw error;
    // Another request with this key made the object: its answer, once kept (it is being answered now).
    for (let wait = 0; wait < 10; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const first = await firstAnswer();
      if (first) return first;
    }
    throw new DomainError(409, {
      location: 'header',
      name: 'Idempotency-Key',
      description: `This Idempotency-Key already created object ${id}; its first answer is no longer kept`,
    });
  }
  try {
    await keepIdempotencyRecord(
      scope,
      { request: sent, sealed: seal(answer, secret) },
      Math.ceil(Date.now() / 1000) + KEPT_SECONDS,
    );
  } catch (error) {
    // The object is made and this answer is right; only a later retry of it will get the 409 above.
    log().warn('idempotency: first answer not kept', { error });
  }
  return answer;
}

/** Ids are 128 bits (random, or a hash of an Idempotency-Key): one found anywhere in an aggregate is that object. */
const holds = (aggregate: Aggregate<unknown>, id: string): boolean =>
  aggregate.children.some((c) => c.place.id === id) || JSON.stringify(aggregate.root).includes(id);

/**
 * The repository a create of a child (a bid, a question, a document, an item...) writes through when its id comes
 * from an Idempotency-Key: a change of an aggregate that already holds that id is refused (AlreadyCreatedError:
 * another request with the key made it, and idempotentCreate answers with its answer), so a second request never
 * writes the child over. It reads the whole aggregate to know (a new bid reads only the root otherwise).
 */
export function creating<T>(repository: AggregateRepository<T>, id: string | undefined): AggregateRepository<T> {
  if (id === undefined) return repository;
  return {
    ...repository,
    modify: (aggregateId, change, options) =>
      repository.modify(
        aggregateId,
        (current, now) => {
          if (holds(current, id)) throw new AlreadyCreatedError(id);
          return change(current, now);
        },
        { ...options, rootOnly: false },
      ),
  };
}
