// The users that integrations and their installations act as: one per integration or installation, made with
// its first token and found again by its address (an `.invalid` one, which no person can sign in with).
import { andWhen, rawSql, sqlText, textValue, type SqlFragment, type TextValue } from '../db/sql-text.js';
import { newId } from '../ids.js';

/**
 * The common table expressions that find the user with this address, or make them (named `title`): `<name>` is
 * their id. A user another request made after the statement's snapshot is found by the insert's conflict on the
 * address (DO UPDATE answers the row it conflicts with, committed or waited for), so `<name>` always has the one
 * user. `name` is SQL written in the module (several users can be found or made in one statement, each under
 * its own name). With `when` (SQL), the user is made only where it holds.
 */
export function serviceUserCtes(name: string, email: TextValue, title: TextValue, now: Date, when?: SqlFragment): SqlFragment {
  const [found, made, user] = [`${name}_found`, `${name}_made`, name].map(rawSql);
  return sqlText`${found} AS (SELECT id FROM users WHERE lower(email) = ${textValue(email)}),
    ${made} AS (
      INSERT INTO users (id, display_name, email, created_at)
      SELECT ${newId('usr', now.getTime())}::text, ${textValue(title)}, ${textValue(email)}, ${now}::timestamptz WHERE NOT EXISTS (SELECT 1 FROM ${found})${andWhen(when)}
      ON CONFLICT ((lower(email))) DO UPDATE SET email = users.email RETURNING id),
    ${user} AS (SELECT id FROM ${found} UNION ALL SELECT id FROM ${made})`;
}
