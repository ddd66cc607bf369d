/**
 * A process that changed something answers only once every process listening has been
 * told of the change; a process that has not been told yet still serves its copy, which
 * is why the writer waits for it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../../server/db/schema';
import { seedDatabase } from '../../../server/db/seed';
import {
  changeVersions,
  seenEverywhere,
  type ChangeVersions,
} from '../../../server/services/change-versions';
import { createTestDatabase, type TestDatabase } from '../test-database';

let testDb: TestDatabase;
/** Announcements to the slow listener are held here until `tellSlow`. */
const held: (() => void)[] = [];
let holding = true;
let slow: ChangeVersions;

const tellSlow = () => {
  holding = false;
  for (const announce of held.splice(0)) announce();
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  const connect = testDb.database.connect;
  if (!connect) throw new Error('PostgreSQL gives listening connections');
  // A process whose announcements arrive late: its connection holds them back.
  slow = await changeVersions({
    ...testDb.database,
    connect: async () => {
      const client = await connect();
      type Emit = (event: string, ...args: unknown[]) => boolean;
      const emit = client.emit.bind(client) as Emit;
      (client as unknown as { emit: Emit }).emit = (event: string, ...args: unknown[]) => {
        if (event !== 'notification' || !holding) return emit(event, ...args);
        held.push(() => emit(event, ...args));
        return true;
      };
      return client;
    },
  });
});

afterAll(async () => {
  await slow.close();
  await testDb.drop();
});

describe('a change on PostgreSQL', () => {
  it('is reported done only once every listening process has been told of it', async () => {
    const before = await slow.read();
    await testDb.database.db.update(products).set({ stock: 42 }).where(eq(products.id, 1));
    let seen: boolean | null = null;
    const waiting = seenEverywhere(testDb.database).then((result) => {
      seen = result;
    });
    await delay(300);
    // Not told yet: it still serves what it had, so the change is not reported done.
    expect(seen).toBeNull();
    expect(await slow.read()).toEqual(before);

    tellSlow();
    await waiting;
    expect(seen).toBe(true);
    expect(Number((await slow.read()).catalogue)).toBe(Number(before.catalogue) + 1);
  });

  it('does not wait for a process that stopped', async () => {
    const other = await changeVersions(testDb.database);
    await other.close();
    await testDb.database.db.update(products).set({ stock: 43 }).where(eq(products.id, 1));
    expect(await seenEverywhere(testDb.database)).toBe(true);
  });
});
