// Handlers for operations whose area has not landed: they answer 501 with the error body, and the
// coverage report lists them as not implemented. Nothing else is ever faked.
import type { OperationId } from '../../generated/router.js';
import type { AppHandlers } from '../handler-types.js';
import { NotImplemented } from '../errors.js';

const stubs = new WeakSet<object>();

/** 501 handlers for the given operations. */
export function notImplemented<K extends OperationId>(operationIds: readonly K[]): Pick<AppHandlers, K> {
  const entries = operationIds.map((id) => {
    const stub = async () => {
      throw new NotImplemented(id);
    };
    stubs.add(stub);
    return [id, stub];
  });
  return Object.fromEntries(entries) as Pick<AppHandlers, K>;
}

/** Whether a handler is real (not a 501 stub). */
export function isImplemented(handler: unknown): boolean {
  return typeof handler === 'function' && !stubs.has(handler);
}
