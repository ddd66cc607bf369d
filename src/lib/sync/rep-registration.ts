/**
 * A salon a sales rep registers at the booth (docs/product.md#field-sales), offline too:
 * its record joins the rep's customers at once under a local id (negative), so that the
 * rep can order for it straight away, and its registration and documents are queued in the
 * outbox. When the registration goes through, the server's id replaces the local one
 * everywhere on the device (./outbox-replay); its orders wait for it.
 */
import type { ChosenDocument } from '../../contracts/accounts';
import type { RepCustomer } from '../../contracts/field-sales';
import type { RepCustomerForm } from '../../contracts/form-schemas';
import { getSession } from '../auth/session-store';
import { db } from '../db/db';
import { requestSync } from './device';
import { entryOf } from './outbox';

/** The customer as the rep's lists show it until the server has answered. */
export function boothCustomer(localId: number, fields: RepCustomerForm): RepCustomer {
  return {
    id: localId,
    name: fields.companyName,
    status: 'PENDING',
    taxNumber: fields.taxNumber,
    registrationNumber: fields.registrationNumber,
    email: fields.companyEmail,
    phone: fields.companyPhone,
    address: fields.address,
    city: fields.city,
    state: '',
    postalCode: fields.postalCode,
    country: fields.country,
    website: fields.website ?? '',
    contacts: [],
    lastOrderAt: null,
    openOrders: 0,
  };
}

/**
 * Registers a salon for the signed-in rep: in one transaction, keeps it among the rep's
 * customers, makes it the one the rep orders for, and queues its registration and each
 * document. Returns its local id.
 */
export async function registerAtBooth(
  fields: RepCustomerForm,
  documents: readonly ChosenDocument[],
): Promise<number> {
  const user = getSession()?.user;
  if (user?.role !== 'SALES_REP') throw new Error('Only a sales rep registers salons');
  const userId = user.id;
  // Read before the transaction: IndexedDB ends a transaction that waits on anything else.
  const files = await Promise.all(
    documents.map(async ({ field, file }) => ({
      field,
      fileName: file.name,
      contentType: file.type,
      bytes: await file.arrayBuffer(),
    })),
  );
  const tables = [db.outbox, db.repCustomers, db.repState];
  const localId = await db.transaction('rw', tables, async () => {
    // Never an id used before on this device: entries and orders of an earlier salon may
    // still name theirs (one refused, one kept at sign-out) and must not become this one's.
    let id = -Date.now();
    while (await db.repCustomers.get([userId, id])) id -= 1;
    await db.repCustomers.put({
      userId,
      id,
      customer: boothCustomer(id, fields),
      syncedAt: new Date().toISOString(),
    });
    await db.repState.put({ userId, actingFor: id });
    await db.outbox.add(entryOf({ kind: 'rep.customer', localId: id, fields }));
    for (const file of files) {
      await db.outbox.add(entryOf({ kind: 'rep.document', customerId: id, ...file }));
    }
    return id;
  });
  requestSync();
  return localId;
}
