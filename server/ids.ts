import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32: no I, L, O, U

/**
 * A new id `<prefix>_<time><random>`: 10 characters of milliseconds then 6 random ones, so ids sort by
 * creation time, which lets lists use the id as their keyset.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = alphabet[t % 32] + time;
  const random = [...randomBytes(6)].map((b) => alphabet[b % 32]).join('');
  return `${prefix}_${time}${random}`;
}
