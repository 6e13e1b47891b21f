// The names statements are prepared under (server/db/sql-text.ts statementName): PostgreSQL cuts a name at
// 63 characters, so two long names that share those would share one prepared statement.
import { describe, expect, it } from 'vitest';
import { statementName } from '../../server/db/sql-text.js';

describe('statementName', () => {
  it('keeps a plain identifier PostgreSQL keeps whole', () => {
    expect(statementName('alone', 'alone_members_0123456789')).toBe('alone_members_0123456789');
    expect(statementName('alone', 'a'.repeat(63))).toBe('a'.repeat(63));
  });

  it('names a longer one, or one that is not an identifier, by its prefix and a hash, distinct per name', () => {
    const shared = `alone_${'x'.repeat(60)}`;
    const [first, second] = [statementName('alone', `${shared}_first`), statementName('alone', `${shared}_second`)];
    for (const name of [first, second]) expect(name).toMatch(/^alone_[0-9a-f]{24}$/);
    expect(first).not.toBe(second);
    expect(statementName('alone', `${shared}_first`)).toBe(first);
    expect(statementName('grant', 'grant with space')).toMatch(/^grant_[0-9a-f]{24}$/);
  });
});
