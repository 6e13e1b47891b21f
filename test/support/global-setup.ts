// Runs once before all test files: migrates one database and hands every test file a copy of it
// (a PGlite data-directory dump, or a PostgreSQL template database when DATABASE_URL is set), and
// starts a fresh record of the operations the tests exercise.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../server/db/client.js';
import { operationsLog, resultsDir } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

async function preparePglite(): Promise<string> {
  const pglite = new PGlite();
  await createDb({ kind: 'pglite', pglite }).migrate();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  // Named per run: two vitest runs side by side (helpers, CI) must not read each other's half-written file.
  const file = path.join(resultsDir, `pglite-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

async function preparePostgres(url: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `dwapi_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  const database = createDb({ kind: 'postgres', url: templateUrl.toString(), poolSize: 1 });
  await database.migrate();
  await database.close();
  return {
    name,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export default async function setup(project: TestProject) {
  rmSync(operationsLog, { force: true });
  rmSync(path.join(resultsDir, 'logs'), { recursive: true, force: true }); // the run's logs, for scripts/check-secrets.ts
  mkdirSync(resultsDir, { recursive: true });
  const pgliteTemplate = await preparePglite();
  project.provide('pgliteTemplate', pgliteTemplate);
  const removePgliteTemplate = () => rmSync(pgliteTemplate, { force: true });
  const url = process.env.DATABASE_URL;
  if (!url) {
    project.provide('postgresTemplate', '');
    return removePgliteTemplate;
  }
  const template = await preparePostgres(url);
  project.provide('postgresTemplate', template.name);
  return async () => {
    removePgliteTemplate();
    await template.drop();
  };
}
