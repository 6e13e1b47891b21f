// What the access-matrix test (test/access-matrix.test.ts) needs to call an operation successfully:
// a fresh resource for each path parameter, and a minimal valid body where `{}` is not one. Each area
// adds its own file here and one line below; the matrix itself names no operation.
import type { MatrixFixtures } from './types.js';
import { contentTreeFixtures } from './content-tree.js';

export type { MatrixFixtures, MatrixWorld } from './types.js';

export const matrixFixtures: MatrixFixtures[] = [contentTreeFixtures];
