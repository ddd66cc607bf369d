import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepCustomer } from '../../src/contracts/field-sales';
import type { Order } from '../../src/contracts/orders';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import {
  localOrderRef,
  replayOutbox,
  sendable,
  type Transport,
  type TransportResponse,
} from '../../src/lib/sync/outbox-replay';
import type { OutboxEntry, OutboxPayload, OutboxRequest } from '../../src/lib/sync/outbox-rules';
import { storeCustomers } from '../../src/lib/sync/rep-customers';
import { boothCustomer } from '../../src/lib/sync/rep-registration';
import { ADDRESS } from '../fixtures/shipping-address';

// A sales rep's outbox: orders for its customers, and salons registered at the booth whose
// orders and documents wait for the registration, then take the server's id.

const REP = 7;
let db: PortalDb;

beforeEach(() => {
  db = createPortalDb(`rep-outbox-${crypto.randomUUID()}`);
});
afterEach(async () => {
  await db.delete();
});

let keys = 0;
async function queue(payload: OutboxPayload): Promise<number> {
  const entry: OutboxEntry = {
    userId: REP,
    kind: payload.kind,
    payload,
    idempotencyKey: `rep-${(keys += 1)}`,
    createdAt: new Date().toISOString(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
  };
  return (await db.outbox.add(entry)) as number;
}

const FIELDS = {
  companyName: 'Salon Ștefania',
  taxNumber: 'RO123',
  registrationNumber: 'J40/1/2026',
  companyEmail: 'stefania@example.com',
  companyPhone: '+40 721 000 000',
  address: 'Str. Lungă 1',
  city: 'Brașov',
  postalCode: '500001',
  country: 'Romania',
};

const order = (customerId: number, localRef: string): OutboxPayload => ({
  kind: 'rep.order',
  customerId,
  items: [{ productId: 3, quantity: 2 }],
  shippingAddress: ADDRESS,
  notes: '',
  localRef,
  signature: null,
});

/** A server that answers from a script, and records the requests it was sent. */
function fakeServer(answer: (request: OutboxRequest) => TransportResponse) {
  const sent: OutboxRequest[] = [];
  const transport: Transport = {
    send(_entry, request) {
      sent.push(request);
      return Promise.resolve(answer(request));
    },
  };
  return { transport, sent };
}

const replay = (transport: Transport) =>
  replayOutbox({ db, transport, currentUserId: () => REP, random: () => 0.5 });

const serverOrder = (id: number, clientReference: string) =>
  ({ id, orderNumber: `FP-2026-${id}`, clientReference, orderItems: [] }) as unknown as Order;

describe('a salon registered at the booth', () => {
  it('is registered first; its document and order then go under the server’s id, everywhere', async () => {
    const local = -1;
    await db.repCustomers.put({
      userId: REP,
      id: local,
      customer: boothCustomer(local, FIELDS),
      syncedAt: '',
    });
    await db.repState.put({ userId: REP, actingFor: local });
    await db.repCarts.put({
      userId: REP,
      customerId: local,
      lines: [{ productId: 4, quantity: 1 }],
      updatedAt: '',
    });
    await db.orders.put({
      ref: localOrderRef('L-B1'),
      userId: REP,
      state: 'waiting',
      createdAt: '',
      order: serverOrder(0, 'L-B1'),
      localRef: 'L-B1',
      customerId: local,
    });
    await queue({ kind: 'rep.customer', localId: local, fields: FIELDS });
    await queue({
      kind: 'rep.document',
      customerId: local,
      field: 'tradeRegister',
      fileName: 'register.jpg',
      contentType: 'image/jpeg',
      bytes: new Uint8Array([0xff, 0xd8, 0xff]).buffer,
    });
    await queue(order(local, 'L-B1'));

    const registered: RepCustomer = { ...boothCustomer(91, FIELDS), id: 91 };
    const { transport, sent } = fakeServer((request) =>
      request.path === 'rep/customers'
        ? { status: 201, body: { customer: registered } }
        : request.path.endsWith('/documents')
          ? { status: 201, body: { documents: [] } }
          : { status: 201, body: { order: serverOrder(501, 'L-B1') } },
    );
    expect(await replay(transport)).toMatchObject({ done: 3 });

    expect(sent.map((request) => request.path)).toEqual([
      'rep/customers',
      'rep/customers/91/documents',
      'rep/customers/91/orders',
    ]);
    expect(sent[0]?.body).toEqual(FIELDS);
    expect(sent[1]?.file).toMatchObject({ field: 'tradeRegister', name: 'register.jpg' });
    expect(await db.repCustomers.get([REP, local])).toBeUndefined();
    expect((await db.repCustomers.get([REP, 91]))?.customer.name).toBe('Salon Ștefania');
    expect((await db.repState.get(REP))?.actingFor).toBe(91);
    expect((await db.repCarts.get([REP, 91]))?.lines).toEqual([{ productId: 4, quantity: 1 }]);
    expect(await db.repCarts.get([REP, local])).toBeUndefined();
    expect(await db.orders.get('order:501')).toMatchObject({ customerId: 91, localRef: 'L-B1' });
  });

  it('holds back its order and document when the registration is refused, not another customer’s order', async () => {
    const refused = await queue({ kind: 'rep.customer', localId: -2, fields: FIELDS });
    const waiting = await queue(order(-2, 'L-B2'));
    await queue(order(12, 'L-C1'));
    const { transport, sent } = fakeServer((request) =>
      request.path === 'rep/customers'
        ? { status: 409, body: { message: 'Already registered', code: 'COMPANY_EXISTS' } }
        : { status: 201, body: { order: serverOrder(502, 'L-C1') } },
    );
    await replay(transport);
    expect(sent.map((request) => request.path)).toEqual([
      'rep/customers',
      'rep/customers/12/orders',
    ]);
    expect((await db.outbox.get(refused))?.error?.code).toBe('COMPANY_EXISTS');
    expect((await db.outbox.get(waiting))?.state).toBe('waiting');
  });
});

describe('the sync centre, for a rep', () => {
  it('gives up a salon registered at the booth whole, and puts a refused order’s lines back', async () => {
    const { db: shared } = await import('../../src/lib/db/db');
    const { discardEntry } = await import('../../src/lib/sync/outbox');
    const add = async (payload: OutboxPayload) =>
      (await shared.outbox.add({
        userId: REP,
        kind: payload.kind,
        payload,
        idempotencyKey: crypto.randomUUID(),
        createdAt: '',
        attempts: 1,
        nextAttemptAt: 0,
        state:
          payload.kind === 'rep.customer' || payload.kind === 'rep.order' ? 'attention' : 'waiting',
      })) as number;
    const local = -5;
    await shared.repCustomers.put({
      userId: REP,
      id: local,
      customer: boothCustomer(local, FIELDS),
      syncedAt: '',
    });
    await shared.repState.put({ userId: REP, actingFor: local });
    await shared.repCarts.put({ userId: REP, customerId: local, lines: [], updatedAt: '' });
    const registration = await add({ kind: 'rep.customer', localId: local, fields: FIELDS });
    const boothOrder = await add(order(local, 'L-B9'));
    await shared.orders.put({
      ref: localOrderRef('L-B9'),
      userId: REP,
      state: 'waiting',
      createdAt: '',
      order: serverOrder(0, 'L-B9'),
      localRef: 'L-B9',
      customerId: local,
    });
    const otherOrder = await add(order(12, 'L-C9'));
    await shared.repCarts.put({
      userId: REP,
      customerId: 12,
      lines: [{ productId: 3, quantity: 1 }],
      updatedAt: '',
    });

    await discardEntry(registration);
    expect(await shared.outbox.get(boothOrder)).toBeUndefined();
    expect(await shared.orders.get(localOrderRef('L-B9'))).toBeUndefined();
    expect(await shared.repCustomers.get([REP, local])).toBeUndefined();
    expect(await shared.repCarts.get([REP, local])).toBeUndefined();
    expect((await shared.repState.get(REP))?.actingFor).toBeNull();
    // Another customer's order is not the registration's.
    expect(await shared.outbox.get(otherOrder)).toBeDefined();

    await discardEntry(otherOrder);
    expect((await shared.repCarts.get([REP, 12]))?.lines).toEqual([{ productId: 3, quantity: 3 }]);
    await shared.delete();
  });

  it('adds a salon registered twice to the cart the rep already had for it', async () => {
    await db.repCarts.put({
      userId: REP,
      customerId: 91,
      lines: [{ productId: 4, quantity: 2 }],
      updatedAt: '',
    });
    await db.repCarts.put({
      userId: REP,
      customerId: -1,
      lines: [
        { productId: 4, quantity: 1 },
        { productId: 6, quantity: 5 },
      ],
      updatedAt: '',
    });
    await queue({ kind: 'rep.customer', localId: -1, fields: FIELDS });
    const again: RepCustomer = { ...boothCustomer(91, FIELDS), id: 91 };
    await replay(fakeServer(() => ({ status: 200, body: { customer: again } })).transport);
    expect((await db.repCarts.get([REP, 91]))?.lines).toEqual([
      { productId: 4, quantity: 3 },
      { productId: 6, quantity: 5 },
    ]);
  });
});

describe('a salon registered at the booth that was the rep’s customer already', () => {
  const recorded: RepCustomer = {
    ...boothCustomer(91, FIELDS),
    id: 91,
    name: 'SALON STEFANIA',
    email: 'Stefania@Example.com',
    phone: '0721 000 000',
    address: 'Str. Lunga nr. 1',
    registrationNumber: '',
    website: '',
  };

  it('keeps what the rep typed that the maker’s record does not say, until the record says it', async () => {
    await queue({ kind: 'rep.customer', localId: -1, fields: { ...FIELDS, country: 'Other' } });
    await replay(fakeServer(() => ({ status: 200, body: { customer: recorded } })).transport);
    // The same name and e-mail in other letters, and the same phone with its country's
    // prefix, are the record's; another address, and a registration number the record lacks,
    // are not. "Other" as a country says nothing.
    expect((await db.repCustomers.get([REP, 91]))?.boothDetails).toEqual({
      registrationNumber: 'J40/1/2026',
      address: 'Str. Lungă 1',
    });

    // Staff have since written the address down: a later list keeps only the rest.
    await storeCustomers(
      db,
      REP,
      [{ ...recorded, address: 'Str. Lungă 1' }],
      new Date().toISOString(),
    );
    expect((await db.repCustomers.get([REP, 91]))?.boothDetails).toEqual({
      registrationNumber: 'J40/1/2026',
    });
    await storeCustomers(
      db,
      REP,
      [{ ...recorded, registrationNumber: 'J40 / 1 / 2026' }],
      new Date().toISOString(),
    );
    expect((await db.repCustomers.get([REP, 91]))?.boothDetails).toBeUndefined();
  });

  it('keeps nothing beside a salon the server has just created from what was typed', async () => {
    await queue({ kind: 'rep.customer', localId: -1, fields: FIELDS });
    await replay(fakeServer(() => ({ status: 201, body: { customer: recorded } })).transport);
    expect((await db.repCustomers.get([REP, 91]))?.boothDetails).toBeUndefined();
  });
});

describe('the customers kept on the device', () => {
  const kept = async () =>
    (await db.repCustomers.where('userId').equals(REP).toArray()).map((stored) => ({
      id: stored.id,
      localId: stored.localId,
    }));

  it('keeps a salon whose registration completed while the list was on its way, and its booth id', async () => {
    const other: RepCustomer = { ...boothCustomer(40, FIELDS), id: 40, name: 'Salon Iris' };
    await db.repCustomers.put({ userId: REP, id: 40, customer: other, syncedAt: '2026-01-01' });
    await db.repCustomers.put({
      userId: REP,
      id: -1,
      customer: boothCustomer(-1, FIELDS),
      syncedAt: '',
    });
    await db.repState.put({ userId: REP, actingFor: -1 });
    // The rep's list is asked for, then the registration completes before the answer is kept.
    const askedAt = new Date().toISOString();
    await queue({ kind: 'rep.customer', localId: -1, fields: FIELDS });
    const registered: RepCustomer = { ...boothCustomer(91, FIELDS), id: 91 };
    await replay(fakeServer(() => ({ status: 201, body: { customer: registered } })).transport);
    await storeCustomers(db, REP, [other], askedAt);

    expect(await kept()).toEqual(
      expect.arrayContaining([
        { id: 40, localId: undefined },
        { id: 91, localId: -1 },
      ]),
    );
    expect((await db.repState.get(REP))?.actingFor).toBe(91);

    // A later list holds it: it is kept as the server has it, still known by its booth id;
    // a customer no longer the rep's leaves the device.
    await storeCustomers(db, REP, [{ ...registered, city: 'Sibiu' }], new Date().toISOString());
    expect(await kept()).toEqual([{ id: 91, localId: -1 }]);
    expect((await db.repCustomers.get([REP, 91]))?.customer.city).toBe('Sibiu');
  });
});

describe('what a rep sends side by side', () => {
  let ids = 0;
  const stored = (payload: OutboxPayload, extra: Partial<OutboxEntry> = {}): OutboxEntry => ({
    id: (ids += 1),
    userId: REP,
    kind: payload.kind,
    payload,
    idempotencyKey: `pick-${ids}`,
    createdAt: '',
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
    ...extra,
  });
  const photo = (customerId: number): OutboxPayload => ({
    kind: 'rep.document',
    customerId,
    field: 'tradeRegister',
    fileName: 'register.jpg',
    contentType: 'image/jpeg',
    bytes: new Uint8Array([0xff, 0xd8, 0xff]).buffer,
  });
  const ids_ = (entries: OutboxEntry[]) => entries.map((entry) => entry.id);

  it('lets no photo backing off hold back an order, and says when to try the photos again', () => {
    // A booth salon registered (done), its two photos timed out on the fair's network.
    const slowPhoto = stored(photo(91), { attempts: 1, nextAttemptAt: 50 });
    const slowerPhoto = stored(photo(91), { attempts: 2, nextAttemptAt: 90 });
    const itsOrder = stored(order(91, 'L-1'));
    const anotherOrder = stored(order(12, 'L-2'));
    const picked = sendable([slowerPhoto, slowPhoto, itsOrder, anotherOrder], {
      onTheirWay: new Set(),
      now: 10,
    });
    // The rep's orders keep their order: the second goes once the first is done.
    expect(ids_(picked.ready)).toEqual([itsOrder.id]);
    expect(picked.backingOff?.id).toBe(slowPhoto.id);
    expect(
      ids_(
        sendable([slowerPhoto, slowPhoto, anotherOrder], { onTheirWay: new Set(), now: 10 }).ready,
      ),
    ).toEqual([anotherOrder.id]);
  });

  it('sends a booth salon’s photos and orders only after its registration, others meanwhile', () => {
    const registration = stored({ kind: 'rep.customer', localId: -3, fields: FIELDS });
    const itsPhoto = stored(photo(-3));
    const itsOrder = stored(order(-3, 'L-3'));
    const photoOfAnother = stored(photo(12));
    const orderOfAnother = stored(order(12, 'L-4'));
    const entries = [registration, itsPhoto, itsOrder, photoOfAnother, orderOfAnother];
    // The other customer's photo goes meanwhile; its order, taken later, keeps its place
    // behind the salon's order.
    expect(ids_(sendable(entries, { onTheirWay: new Set(), now: 0 }).ready)).toEqual([
      registration.id,
      photoOfAnother.id,
    ]);
    const registered = entries
      .slice(1)
      .map((entry) =>
        entry.payload.kind === 'rep.document' || entry.payload.kind === 'rep.order'
          ? { ...entry, payload: { ...entry.payload, customerId: 91 } }
          : entry,
      );
    expect(ids_(sendable(registered, { onTheirWay: new Set(), now: 0 }).ready)).toEqual([
      itsPhoto.id,
      itsOrder.id,
      photoOfAnother.id,
    ]);
    // An order backing off still holds back what comes after it: stock goes in order.
    const slowOrder = stored(order(12, 'L-5'), { attempts: 1, nextAttemptAt: 50 });
    const later = stored(order(14, 'L-6'));
    const picked = sendable([slowOrder, later], { onTheirWay: new Set(), now: 0 });
    expect(picked.ready).toEqual([]);
    expect(picked.backingOff?.id).toBe(slowOrder.id);
  });
});
