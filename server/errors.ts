// What any floor of the server may throw when a request cannot be served as asked: the ground floor. It
// imports nothing of the server; http/errors.ts renders these as the API's error body.

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 501 | 503,
    message: string,
    /** Headers the answer carries (a 429's `Retry-After`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export class BadRequest extends ApiError {
  constructor(message: string) {
    super(400, message);
  }
}
export class Unauthorized extends ApiError {
  constructor(message = 'Missing or invalid access token') {
    super(401, message);
  }
}
export class Forbidden extends ApiError {
  constructor(message = 'You do not have the permission to perform this action') {
    super(403, message);
  }
}
export class NotFound extends ApiError {
  constructor(message: string) {
    super(404, message);
  }
}
export class Conflict extends ApiError {
  constructor(message: string) {
    super(409, message);
  }
}
export class TooLarge extends ApiError {
  constructor(message: string) {
    super(413, message);
  }
}
/** A dependency other than the database (the file store) cannot be reached: 503 with Retry-After, nothing was done. */
export class Unavailable extends ApiError {
  constructor(message: string) {
    super(503, message);
  }
}
export class NotImplemented extends ApiError {
  constructor(operationId: string) {
    super(501, `${operationId} has no handler in this server`);
  }
}

/** The value of `lookup`, or undefined when it throws NotFound: for deletes, where missing is fine. */
export async function unlessNotFound<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (err) {
    if (err instanceof NotFound) return undefined;
    throw err;
  }
}
