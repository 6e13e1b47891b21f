// The excerpts of matching sections, written by the server (server/search/excerpt.ts).
import { describe, expect, it } from 'vitest';
import { excerpt, queryLexemes, queryWords } from '../server/search/excerpt.js';

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');

describe('search excerpts', () => {
  it('reads the lexemes of a tsquery, unquoted, without the negated ones', () => {
    expect(queryLexemes(`'server' <-> 'respons' & !'foo' | 'o''neil' & 'a\\\\b'`)).toEqual(new Set(['server', 'respons', "o'neil", 'a\\b']));
    expect(queryLexemes('')).toEqual(new Set());
  });

  it('marks the words whose English stem is a lexeme of the query, whatever their case', () => {
    const query = queryWords(`'instal' & 'configur'`);
    expect(excerpt('Installing it: then CONFIGURE, configured; the installer, not an instance.', query)).toBe(
      '<b>Installing</b> it: then <b>CONFIGURE</b>, <b>configured</b>; the <b>installer</b>, not an instance',
    );
    // Porter2 changes a word's first letters only for dying, lying and tying.
    expect(excerpt('He was lying there.', queryWords(`'lie'`))).toBe('He was <b>lying</b> there');
  });

  it('without marks, the same window of words as plain text (the site search, read by GitBook\'s renderer)', () => {
    const body = `${words(50)} walrus ${words(50, 50)}.`;
    expect(excerpt(body, queryWords(`'walrus'`), false)).toBe(excerpt(body, queryWords(`'walrus'`)).replace(/<\/?b>/g, ''));
    expect(excerpt(body, queryWords(`'walrus'`), false)).toContain(`${words(14, 36)} walrus ${words(15, 50)}`);
  });

  it('shows up to 30 words centred on the matches, or the first 10 words when none is in the text', () => {
    const body = `${words(50)} walrus ${words(50, 50)}.`;
    const shown = excerpt(body, queryWords(`'walrus'`));
    expect(shown.split(' ')).toHaveLength(30);
    expect(shown).toContain(`${words(14, 36)} <b>walrus</b> ${words(15, 50)}`);
    expect(excerpt(body, queryWords(`'narwhal'`))).toBe(words(10));
    expect(excerpt('', queryWords(`'walrus'`))).toBe('');
    // The window with the most matches wins over the first one.
    const dense = `walrus ${words(40)} walrus w walrus w walrus`;
    expect(excerpt(dense, queryWords(`'walrus'`)).match(/<b>/g)).toHaveLength(3);
  });
});
