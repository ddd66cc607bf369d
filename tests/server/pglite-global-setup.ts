import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedPgliteTarball } from './template-database';

/** Migrates one embedded database for the PGlite suite; each test file loads a copy of it. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'portal-pglite-'));
  const tarball = join(dir, 'migrated.tar');
  try {
    writeFileSync(tarball, await migratedPgliteTarball());
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  project.provide('pgliteTemplate', tarball);
  return () => rmSync(dir, { recursive: true, force: true });
}
