/**
 * The one error family. Every refusal the service makes is a DomainError; the HTTP kit turns it into
 * `{"status":"error","errors":[{location,name,description}]}` and anything else into a logged, bare 500.
 */
export type ErrorLocation = 'body' | 'url' | 'header' | 'querystring';

export interface ErrorEntry {
  location: ErrorLocation;
  name: string;
  description: unknown;
}

export class DomainError extends Error {
  readonly entries: ErrorEntry[];
  constructor(
    readonly status: number,
    entries: ErrorEntry | ErrorEntry[],
  ) {
    const list = Array.isArray(entries) ? entries : [entries];
    super(list.map((e) => `${e.name}: ${JSON.stringify(e.description)}`).join('; '));
    this.entries = list;
    this.name = new.target.name;
  }
}

/** 401: no valid credential. */
export class UnauthorizedError extends DomainError {
  constructor(description = 'No valid credential') {
    super(401, { location: 'header', name: 'Authorization', description });
  }
}

/** 403: a business rule or a permission refuses the request. Default location/name as upstream `raise_operation_error`. */
export class ForbiddenError extends DomainError {
  constructor(description: string, name = 'data', location: ErrorLocation = 'body') {
    super(403, { location, name, description });
  }
}

/** 403 `url/permission` or `url/role` "Forbidden": the caller's role may not do this at all. */
export class PermissionError extends ForbiddenError {
  constructor(name: 'permission' | 'role' = 'permission') {
    super('Forbidden', name, 'url');
  }
}

/** 404: unknown path or id (`name` is the path parameter, e.g. `lot_id`). */
export class NotFoundError extends DomainError {
  constructor(name: string, location: ErrorLocation = 'url') {
    super(404, { location, name, description: 'Not Found' });
  }
}

/** 415: wrong Content-Type, or an unknown type (upstream `lotType: Not implemented`). */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(entry: ErrorEntry) {
    super(415, entry);
  }
}

/** 422: the body cannot be used; one entry per failing field, messages as lists. */
export class UnprocessableError extends DomainError {
  constructor(entries: ErrorEntry | ErrorEntry[]) {
    super(422, entries);
  }
  static field(name: string, ...messages: string[]): UnprocessableError {
    return new UnprocessableError({ location: 'body', name, description: messages });
  }
  static data(description: string): UnprocessableError {
    return new UnprocessableError({ location: 'body', name: 'data', description });
  }
}

/**
 * 412 Precondition Failed (interface.md §7, a write conflict): an optimistic write lost its race to concurrent
 * writers of the same object on every attempt the store made; nothing of this request was saved and the client may
 * retry it.
 */
export class ConflictError extends DomainError {
  constructor(
    description = 'Precondition Failed: the object was changed by concurrent requests while saving this one; nothing was saved, retry the request',
  ) {
    super(412, { location: 'body', name: 'data', description });
  }
}

/** 413: a body larger than anything the service stores, refused before it is parsed. */
export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super(413, { location: 'body', name: 'data', description: `Request body is larger than ${limitBytes} bytes` });
  }
}

/** 429: the caller's key spent its request allowance; `retryAfterSeconds` goes out as `Retry-After`. */
export class TooManyRequestsError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    description = 'Too many requests for this API key; retry later',
  ) {
    super(429, { location: 'header', name: 'Authorization', description });
  }
}

/**
 * 500 in the envelope: an answer larger than a Lambda function may send (6 MB), which API Gateway would turn into a
 * bare 500 anyway. The bounds on what is stored keep every view under it; this is the last guard, for objects stored
 * before those bounds.
 */
export class AnswerTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super(500, {
      location: 'body',
      name: 'data',
      description: `The answer would be larger than ${limitBytes} bytes: read the object's parts (documents, bids, questions) on their own`,
    });
  }
}

/** 503: the database refused or timed out for a passing reason (throttling, an internal error, a timeout). */
export class ServiceUnavailableError extends DomainError {
  constructor(
    readonly retryAfterSeconds = 1,
    description = 'Service temporarily unavailable, retry the request',
  ) {
    super(503, { location: 'body', name: 'data', description });
  }
}

/** 503 when the change is known not to be stored (the store failed before writing, or the caller was not even let in). */
export class NotStoredError extends ServiceUnavailableError {
  constructor() {
    super(1, 'Service temporarily unavailable: the change was not stored; send the request again');
  }
}
