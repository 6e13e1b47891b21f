import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new migration under server/db/migrations after a change to schema/<area>.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});
