// The weeks of a cluster's `weeklyPulse`: 13 calendar weeks (ISO weeks, Monday 00:00 UTC to the next
// Monday), the last one being the week `now` is in, oldest first. An issue counts in the week its
// conversation took place (`metadata.createdAt`, else when it was ingested: the conversation's
// created_at), so conversations imported today about last month land last month.

export const PULSE_WEEKS = 13;
export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Monday 00:00 UTC of the week `at` is in. */
export function weekStart(at: Date): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const daysSinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  return new Date(midnight - daysSinceMonday * DAY_MS);
}

/** The pulse index of a time (0 the oldest week, 12 this week), or undefined outside the 13 weeks. */
export function pulseIndex(at: Date, now: Date): number | undefined {
  const weeksAgo = Math.ceil((weekStart(now).getTime() - at.getTime()) / WEEK_MS);
  return weeksAgo >= 0 && weeksAgo < PULSE_WEEKS ? PULSE_WEEKS - 1 - weeksAgo : undefined;
}
