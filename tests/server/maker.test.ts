/**
 * GET /api/maker: the maker's details that devices keep for pro-formas made offline, as
 * configured (MAKER_* settings), to anyone — they are printed on every pro-forma.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { CONFIGURED_MAKER, MAKER_SETTINGS } from '../fixtures/maker-details';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { maker } = readConfig(MAKER_SETTINGS);
  app = await buildApp({ database: testDb.database, maker });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe("the maker's details", () => {
  it('are answered to anyone, as configured, and asked again at each refresh', async () => {
    const response = await app.inject('/api/maker');

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual({
      ...CONFIGURED_MAKER,
      name: 'Floravia Professional',
      email: 'comenzi@floravia.ro',
      phone: '+40 256 490 198',
    });
  });

  it("are the brand's alone on a server without them configured", async () => {
    const plain = await buildApp({ database: testDb.database });
    try {
      const body = (await plain.inject('/api/maker')).json<Record<string, unknown>>();
      expect(body).toMatchObject({ name: 'Floravia Professional', iban: '', paymentDays: 15 });
    } finally {
      await plain.close();
    }
  });
});
