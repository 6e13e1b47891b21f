// Database errors that stand for an expected failure.
const UNIQUE_VIOLATION = '23505';

function causeCode(err: unknown): string | undefined {
  // node-postgres puts the SQLSTATE on the error; Drizzle may wrap it in `cause`.
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

/** A `.catch` handler turning a unique-constraint violation into the given error and rethrowing anything else. */
export function whenUniqueViolation(toError: () => Error) {
  return (err: unknown): never => {
    throw causeCode(err) === UNIQUE_VIOLATION ? toError() : err;
  };
}
