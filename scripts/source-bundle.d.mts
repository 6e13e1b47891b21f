/** The bundle of `entry` (a path from the project's root), built when its sources changed; the path of its entry file. */
export function sourceBundle(entry: string, options: { name: string }): Promise<string>;
