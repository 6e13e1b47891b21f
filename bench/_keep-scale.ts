import { createScratchDatabase } from '../server/db/scratch-database.js';
import { seedWorkspace, sizeAt } from './scale-seed.js';
const scratch = await createScratchDatabase('postgres://postgres@127.0.0.1:5432/test', { prefix: 'keep_scale' });
await scratch.database.migrate();
const w = await seedWorkspace(scratch.database, sizeAt(1), console.log);
console.log(scratch.url, JSON.stringify(w));
process.exit(0);
