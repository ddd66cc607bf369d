/**
 * A sales rep's customers kept on the device (docs/product.md#field-sales): read from
 * GET /api/rep/customers whenever the rep's data is refreshed (sign-in, each sync, the
 * customers page), searchable offline, and removed at sign-out (./device-data). The
 * customer the rep is ordering for is kept here too, per rep.
 */
import { foldText } from '../../contracts/catalogue-query';
import {
  boothDetailsNotApplied,
  type RepCustomer,
  type RepCustomerList,
} from '../../contracts/field-sales';
import { api } from '../api/client';
import { db, type PortalDb, type StoredRepCustomer } from '../db/db';
import { userRead } from './user-read';

const customerRead = userRead({
  has: (user) => user.role === 'SALES_REP',
  fetch: async () => (await api.get('rep/customers').json<RepCustomerList>()).customers,
  keep: (userId, kept: RepCustomer[], askedAt) => storeCustomers(db, userId, kept, askedAt),
  what: 'the customers',
});

/**
 * Reads the signed-in rep's customers and keeps them, in place of those kept before (a
 * company assigned to another rep meanwhile leaves the device). Fails as the call failed;
 * resolves at once for anyone but a rep.
 */
export const readCustomersFromServer = customerRead.read;

/** The same, best effort: offline, or refused, the device keeps what it has. */
export const refreshCustomers = customerRead.refresh;

/**
 * Keeps `customers`, the rep's list as the server had it when asked at `askedAt`, in place
 * of the customers kept before. Two kinds stay: salons registered at the booth and not
 * sent yet (negative ids), and one whose registration completed on this device after the
 * list was asked for (kept since `askedAt`), which the list could not hold yet. A customer
 * keeps the id it had at the booth (`localId`): its checkout form is known by it; and the
 * details taken at the booth that its record does not hold, until the rep dismisses them.
 */
export async function storeCustomers(
  from: PortalDb,
  userId: number,
  customers: RepCustomer[],
  askedAt: string,
): Promise<void> {
  const syncedAt = new Date().toISOString();
  await from.transaction('rw', from.repCustomers, async () => {
    const kept = await from.repCustomers.where('userId').equals(userId).toArray();
    const earlier = new Map(kept.map((stored) => [stored.id, stored]));
    await from.repCustomers.bulkDelete(
      kept
        .filter((stored) => stored.id > 0 && stored.syncedAt < askedAt)
        .map((stored) => [userId, stored.id] as [number, number]),
    );
    await from.repCustomers.bulkPut(
      customers.map((customer) => ({
        userId,
        id: customer.id,
        customer,
        syncedAt,
        localId: earlier.get(customer.id)?.localId,
        // Those the record says by now (written in by staff) are dropped.
        boothDetails: boothDetailsNotApplied(
          earlier.get(customer.id)?.boothDetails ?? {},
          customer,
        ),
      })),
    );
  });
}

/** What a search of the customers looks in: names, city, tax number, e-mail and phone. */
const searchTextOf = ({ customer }: StoredRepCustomer) =>
  foldText(
    [
      customer.name,
      customer.city,
      customer.taxNumber,
      customer.email,
      customer.phone,
      ...customer.contacts.map((contact) => `${contact.firstName} ${contact.lastName}`),
    ].join('\n'),
  );

/**
 * The rep's customers kept on the device, by name; with `search`, those whose name, city,
 * tax number, e-mail, phone or people contain each of its words, ignoring case and accents.
 */
export async function readCustomers(
  userId: number | null,
  search = '',
): Promise<StoredRepCustomer[]> {
  if (userId === null) return [];
  const words = foldText(search).split(' ').filter(Boolean);
  const kept = await db.repCustomers.where('userId').equals(userId).toArray();
  return kept
    .filter((stored) => {
      const text = searchTextOf(stored);
      return words.every((word) => text.includes(word));
    })
    .sort((a, b) =>
      a.customer.name.localeCompare(b.customer.name, undefined, { sensitivity: 'base' }),
    );
}

/** The customer the rep is ordering for on this device; null when none is chosen. */
export async function readActingFor(userId: number | null): Promise<StoredRepCustomer | null> {
  if (userId === null) return null;
  const state = await db.repState.get(userId);
  if (state?.actingFor == null) return null;
  return (await db.repCustomers.get([userId, state.actingFor])) ?? null;
}

/** The rep has passed on (or dropped) the details taken at the booth for `customerId`. */
export async function dismissBoothDetails(userId: number, customerId: number): Promise<void> {
  await db.repCustomers.update([userId, customerId], { boothDetails: undefined });
}

/** Orders for `customerId` from now on (null: for no one), until the rep switches. */
export async function chooseCustomer(userId: number, customerId: number | null): Promise<void> {
  await db.repState.put({ userId, actingFor: customerId });
}

/**
 * How many units each customer's cart holds (./rep-cart), for the rep's bar: here, with
 * the customers, so that the bar loads no cart code.
 */
export async function repCartCounts(userId: number | null): Promise<Map<number, number>> {
  if (userId === null) return new Map();
  const carts = await db.repCarts.where('userId').equals(userId).toArray();
  return new Map(
    carts.map((cart) => [
      cart.customerId,
      cart.lines.reduce((sum, line) => sum + line.quantity, 0),
    ]),
  );
}
