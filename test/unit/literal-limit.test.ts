// A list page's LIMIT is written into the statement's text (server/db/literal-limit.ts): the SQL Drizzle
// writes for `.limit(literalLimit(n))` holds the number and sends no parameter for it.
import { pgTable, QueryBuilder, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { literalLimit } from '../../server/db/literal-limit.js';

const items = pgTable('items', { id: text('id').primaryKey() });

describe('literalLimit', () => {
  it('writes the page size into the SQL text, with no parameter for it', () => {
    const query = new QueryBuilder().select().from(items).where(undefined).limit(literalLimit(101)).toSQL();
    expect(query.sql).toMatch(/ limit 101$/);
    expect(query.params).toEqual([]);
    // A plain number is a parameter: what literalLimit avoids.
    expect(new QueryBuilder().select().from(items).limit(101).toSQL()).toMatchObject({ sql: expect.stringMatching(/ limit \$1$/), params: [101] });
  });

  it('refuses what is not a number of rows', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(() => literalLimit(bad)).toThrow(RangeError);
    expect(() => literalLimit(0)).not.toThrow();
  });
});
