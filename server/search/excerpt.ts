// The excerpt of a matching section shown in a search result: up to 30 words of the section around its
// matching words, which are marked <b>…</b>; the first 10 words when only the section's title matches.
// It is the form ts_headline gave ('MaxFragments=1, MaxWords=30, MinWords=10'), written here rather than
// by the database because ts_headline parses each section again for every search (2.6 ms on PostgreSQL,
// 5 ms on PGlite, for the 87 sections of a common word's first 20 pages), where this costs ~0.3 ms.
//
// A word matches when it, lower-cased, or its English stem is one of the query's lexemes. The stemmer is
// Porter2, the Snowball "english" algorithm that PostgreSQL's english_stem dictionary runs (the `porter2`
// package gave PostgreSQL's stem for each of 26,264 distinct words of this project's dependencies' READMEs).
// Which sections match is still decided by the database, on the section's own text-search vector.
import { stem } from 'porter2';

const MAX_WORDS = 30;
const MIN_WORDS = 10;

/** The lexemes of a tsquery's text form (`'server' <-> 'respons' & !'foo'`), but for the negated ones. */
export function queryLexemes(tsquery: string): Set<string> {
  const lexemes = new Set<string>();
  for (const [, negated, quoted] of tsquery.matchAll(/(!\s*)?'((?:[^'\\]|''|\\.)*)'/g)) {
    if (!negated) lexemes.add(quoted.replace(/''/g, "'").replace(/\\(.)/g, '$1'));
  }
  return lexemes;
}

/**
 * What can match: the lexemes, and the first two letters of each. Porter2 keeps a word's first two
 * letters (it changes only endings, and leaves words of two letters alone), so a word starting otherwise
 * is not stemmed at all; the exceptions are its dying, lying and tying (die, lie, tie).
 */
export interface QueryWords {
  lexemes: Set<string>;
  starts: Set<string>;
}

export function queryWords(tsquery: string): QueryWords {
  const lexemes = queryLexemes(tsquery);
  const starts = new Set([...lexemes].map((l) => l.slice(0, 2)));
  for (const l of ['die', 'lie', 'tie']) if (lexemes.has(l)) starts.add(`${l[0]}y`);
  return { lexemes, starts };
}

function matches(word: string, query: QueryWords): boolean {
  const lower = word.toLowerCase();
  if (query.lexemes.has(lower)) return true;
  return query.starts.has(lower.slice(0, 2)) && query.lexemes.has(stem(lower));
}

/**
 * The excerpt of `body` for the query (see the top of this file); with `marks: false`, the same words
 * unmarked (GitBook's site search answers plain text, which its renderer highlights itself).
 */
export function excerpt(body: string, query: QueryWords, marks = true): string {
  const words = [...body.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length, hit: matches(m[0], query) }));
  if (words.length === 0) return '';
  let from = 0;
  let to = Math.min(words.length, MIN_WORDS);
  if (words.some((w) => w.hit)) {
    // The window of MAX_WORDS words holding the most matching words (the first such), then centred on
    // the matches it holds.
    let best = 0;
    let bestHits = -1;
    let hits = 0;
    for (let i = 0; i < words.length; i++) {
      if (words[i].hit) hits++;
      if (i >= MAX_WORDS && words[i - MAX_WORDS].hit) hits--;
      if (hits > bestHits) {
        bestHits = hits;
        best = Math.max(0, i - MAX_WORDS + 1);
      }
    }
    const end = Math.min(words.length, best + MAX_WORDS);
    let first = best;
    while (!words[first].hit) first++;
    let last = end - 1;
    while (!words[last].hit) last--;
    from = Math.max(0, Math.min(first - Math.floor((MAX_WORDS - (last - first + 1)) / 2), words.length - MAX_WORDS));
    to = Math.min(words.length, from + MAX_WORDS);
  }
  let out = '';
  let at = words[from].start;
  for (let i = from; i < to; i++) {
    const w = words[i];
    out += body.slice(at, w.start) + (w.hit && marks ? `<b>${body.slice(w.start, w.end)}</b>` : body.slice(w.start, w.end));
    at = w.end;
  }
  return out;
}
