// How long a failed job waits before its next attempt (server/jobs/backoff.ts): doubling from the base,
// capped, `attempts` counting the attempt that failed.
import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../server/jobs/backoff.js';

describe('backoffMs', () => {
  it('waits 1 s after the first failed attempt and doubles after each, by default', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => backoffMs(attempts))).toEqual([1000, 2000, 4000, 8000, 16_000]);
    expect(backoffMs(12)).toBe(2_048_000);
  });

  it('never waits longer than an hour by default, however many attempts failed', () => {
    expect(backoffMs(13)).toBe(3_600_000);
    expect(backoffMs(1_000_000)).toBe(3_600_000);
  });

  it('treats no failed attempt yet as the first', () => {
    expect(backoffMs(0)).toBe(1000);
    expect(backoffMs(-5)).toBe(1000);
  });

  it('takes its base and its cap from the options, each defaulting alone', () => {
    expect([1, 2, 3, 4].map((attempts) => backoffMs(attempts, { baseMs: 50, maxMs: 300 }))).toEqual([50, 100, 200, 300]);
    expect(backoffMs(3, { baseMs: 50 })).toBe(200);
    expect(backoffMs(20, { baseMs: 50 })).toBe(3_600_000);
    expect(backoffMs(3, { maxMs: 5000 })).toBe(4000);
    expect(backoffMs(4, { maxMs: 5000 })).toBe(5000);
  });

  it('stays finite for absurd attempt counts: the doubling stops at 2^40', () => {
    expect(backoffMs(41, { baseMs: 1, maxMs: Infinity })).toBe(2 ** 40);
    expect(backoffMs(5000, { baseMs: 1, maxMs: Infinity })).toBe(2 ** 40);
    expect(backoffMs(40, { baseMs: 1, maxMs: Infinity })).toBe(2 ** 39);
  });
});
