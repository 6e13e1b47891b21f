// Column shapes shared by the area schemas.
import { customType, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull();

/**
 * A fractional-indexing order key (see server/content/order-keys.ts). Keys compare byte by byte
 * ('0' < 'A' < 'a'), so the column uses the C collation whatever the database's default is.
 */
export const orderKey = customType<{ data: string }>({
  dataType: () => 'text COLLATE "C"',
});

/** `<column> IN (...)` for a CHECK constraint over a fixed set of values. */
export function oneOf(values: readonly string[]): string {
  return values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');
}
