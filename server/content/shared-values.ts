// Values shared between requests through the content caches (revisions.store.ts, content-documents.ts):
// nothing may change them in place. In tests they are frozen, so code that would change a shared value fails
// loudly there instead of corrupting other requests' reads; in production freezing would only cost time.
const freezeShared = Boolean(process.env.VITEST);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

/** `value`, frozen all the way down under the tests; as it is otherwise. */
export function shared<T>(value: T): T {
  return freezeShared ? deepFreeze(value) : value;
}
