// Text similarity for clustering issues: TF-IDF vectors compared by cosine similarity.
// Tokens are lower-cased runs of letters/digits, without English stop words and words under 3
// letters, reduced by a small suffix stemmer ("resetting", "resets" → "reset") so inflections match.
// An issue joins the most similar cluster when the cosine of its vector with the cluster's centroid
// (the normalized sum of its members' vectors) is at least SIMILARITY_THRESHOLD, else it starts a new one.

/** Cosine similarity an issue needs with a cluster's centroid to join it (0–1). */
// Chosen on sample support tickets: same-problem pairs score 0.2–0.7 against their cluster, different
// problems under 0.15 once the cluster has a few members.
export const SIMILARITY_THRESHOLD = 0.15;

const STOP_WORDS = new Set(
  ('the and for are but not you your with this that have has had was were can cannot could would should will just ' +
    'from they them their there what when where which who why how all any been being into out our its it\'s about ' +
    'also than then too very more most some such only own same other off over under again once here both each few ' +
    'does did doing don\'t doesn nor now she her his him hers yours ours mine myself yourself itself get got please ' +
    'thanks thank hello one way need want trying tried try still know let like use using used see seems seem make')
    .split(' '),
);

const SUFFIXES: [string, string][] = [
  ['ational', 'ate'],
  ['ations', 'ate'],
  ['ation', 'ate'],
  ['ings', ''],
  ['ing', ''],
  ['ied', 'y'],
  ['ies', 'y'],
  ['edly', ''],
  ['ed', ''],
  ['ment', ''],
  ['ly', ''],
  // "boxes", "matches" → "box", "match"; "invoices" only loses its "s" (below).
  ['sses', 'ss'],
  ['xes', 'x'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['ss', 'ss'],
  ['s', ''],
];

/** A word reduced to its stem by stripping one common English suffix (keeping at least 3 letters). */
export function stem(word: string): string {
  for (const [suffix, replacement] of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length) + replacement;
      // "resetting" → "resett" → "reset": undo a doubled final consonant.
      return /([^aeiouls])\1$/.test(base) ? base.slice(0, -1) : base;
    }
  }
  return word;
}

/** The stems of a text's words, stop words left out. */
export function tokens(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.filter((w) => w.length >= 3 && !STOP_WORDS.has(w)).map(stem);
}

export type Vector = Map<string, number>;

/** Inverse document frequencies over a corpus of token lists (smoothed: every term gets a weight above 0). */
export function inverseFrequencies(corpus: string[][]): (term: string) => number {
  const df = new Map<string, number>();
  for (const doc of corpus) for (const term of new Set(doc)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = corpus.length;
  return (term) => Math.log((n + 1) / ((df.get(term) ?? 0) + 1)) + 1;
}

/** The unit-length TF-IDF vector of a token list. */
export function tfidf(doc: string[], idf: (term: string) => number): Vector {
  const tf = new Map<string, number>();
  for (const term of doc) tf.set(term, (tf.get(term) ?? 0) + 1);
  const v: Vector = new Map();
  for (const [term, count] of tf) v.set(term, (count / doc.length) * idf(term));
  return normalize(v);
}

/** The vector scaled to length 1 (an empty vector stays empty). */
export function normalize(v: Vector): Vector {
  const length = Math.sqrt([...v.values()].reduce((s, x) => s + x * x, 0));
  if (length === 0) return v;
  return new Map([...v].map(([k, x]) => [k, x / length]));
}

/** Adds `b` into `a` (for centroids). */
export function addInto(a: Vector, b: Vector): void {
  for (const [k, x] of b) a.set(k, (a.get(k) ?? 0) + x);
}

/** Cosine similarity of two unit vectors. */
export function cosine(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [k, x] of small) dot += x * (large.get(k) ?? 0);
  return dot;
}

/** The `n` heaviest terms of a vector. */
export function topTerms(v: Vector, n: number): string[] {
  return [...v].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, n).map(([k]) => k);
}
