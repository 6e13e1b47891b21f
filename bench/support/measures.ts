// What the HTTP benchmarks measure besides autocannon's figures: the CPU a process (the server, PGlite
// with it) and the PostgreSQL backends of a database used, read from Linux's /proc; and the medians of
// their rounds.
import { readdirSync, readFileSync } from 'node:fs';

/** User + system CPU time a process has used so far, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuTimeMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time used so far by the PostgreSQL backends connected to `database` (their process title is
 * `postgres: [cluster:] <user> <database> <host>…`), by pid. Backends of other databases (other work on the machine)
 * are not counted.
 */
export function databaseCpuMs(database: string | undefined): Map<number, number> {
  const byPid = new Map<number, number>();
  if (!database) return byPid;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.split(/[\s\0]+/).includes(database)) byPid.set(Number(entry), cpuTimeMs(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/** CPU used between two samples of databaseCpuMs (backends started in between count from 0). */
export function databaseCpuUsed(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median of each numeric field over the rounds (a field absent from the first round stays absent). */
export function medianOf<T extends object>(rounds: T[]): T {
  const result = { ...rounds[0] } as Record<string, unknown>;
  for (const [key, value] of Object.entries(result)) {
    if (typeof value === 'number') result[key] = median(rounds.map((r) => (r as Record<string, number>)[key]));
  }
  return result as T;
}

export const round2 = (x: number) => Math.round(x * 100) / 100;
