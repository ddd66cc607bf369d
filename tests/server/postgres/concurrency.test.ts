/**
 * What only a real PostgreSQL shows: two connections at once. (PGlite has one connection,
 * so requests there never overlap.)
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { seedDatabase } from '../../../server/db/seed';
import { decideCompany } from '../../../server/services/admin';
import { bearer, register, signIn } from '../helpers';
import { createTestDatabase, type TestDatabase } from '../test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('Idempotency-Key with overlapping requests', () => {
  it('answers 409 while the first request with the same key is still running, then the recorded answer', async () => {
    const { email, password, user } = await register(app);
    await decideCompany(testDb.database.db, user.companyId, 'approve');
    const tokens = await signIn(app, email, password);
    const key = randomUUID();

    // Another connection holds the key's lock, as a first request still in its transaction would.
    const other = new pg.Client({ connectionString: testDb.url ?? undefined });
    await other.connect();
    await other.query('BEGIN');
    await other.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${user.id}:${key}`]);
    const overlapping = await app.inject({
      method: 'DELETE',
      url: '/api/cart',
      headers: { ...bearer(tokens), 'idempotency-key': key },
    });
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json()).toMatchObject({ code: 'REQUEST_IN_PROGRESS' });
    await other.query('ROLLBACK');
    await other.end();

    const first = await app.inject({
      method: 'DELETE',
      url: '/api/cart',
      headers: { ...bearer(tokens), 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(200);
    const again = await app.inject({
      method: 'DELETE',
      url: '/api/cart',
      headers: { ...bearer(tokens), 'idempotency-key': key },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
