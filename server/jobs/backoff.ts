// How long a failed job waits before its next attempt.

export interface BackoffOptions {
  /** Delay after the first failed attempt; default 1 s. */
  baseMs?: number;
  /** Longest delay; default 1 h. */
  maxMs?: number;
}

/** min(baseMs × 2^(attempts − 1), maxMs): 1 s, 2 s, 4 s, … with the defaults, `attempts` counting the one that failed. */
export function backoffMs(attempts: number, { baseMs = 1000, maxMs = 60 * 60 * 1000 }: BackoffOptions = {}): number {
  // Capping the exponent first keeps 2^n finite for absurd attempt counts.
  return Math.min(baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40), maxMs);
}
