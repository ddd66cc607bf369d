/**
 * An order's history (migration 0011): one row per change of its status or payment,
 * written by the change itself in its transaction, so that the history and the order
 * never disagree. Read by the back office's order page.
 */
import { asc, eq } from 'drizzle-orm';
import type { AdminOrderEvent, OrderEventKind } from '../../src/contracts/admin-orders.js';
import type { Db } from '../db/database.js';
import { orderEvents } from '../db/schema.js';
import type { AuditActor } from './audit.js';

export interface OrderEventRecord {
  orderId: number;
  kind: OrderEventKind;
  /** null at the order's creation. */
  from: string | null;
  to: string;
  /**
   * The salon's user who made the change, the sales rep who did for it, or staff (a staff
   * member, or `npm run admin` deciding on the order's company).
   */
  by:
    | { salonUserId: number }
    | { rep: { id: number; firstName: string; lastName: string } }
    | { staff: AuditActor };
  note?: string;
}

/** Adds one event; `tx` is the transaction of the change it records. */
export async function recordOrderEvent(tx: Db, event: OrderEventRecord): Promise<void> {
  const { by } = event;
  // Staff and reps are named as they were then; a salon's user is the company's; the
  // command line by who ran it, with no account.
  const commandLine = 'staff' in by && 'commandLine' in by.staff ? by.staff.commandLine : null;
  const named =
    'staff' in by ? ('commandLine' in by.staff ? null : by.staff) : 'rep' in by ? by.rep : null;
  await tx.insert(orderEvents).values({
    orderId: event.orderId,
    kind: event.kind,
    fromValue: event.from,
    toValue: event.to,
    actor: 'staff' in by ? 'staff' : 'rep' in by ? 'rep' : 'salon',
    actorId: 'salonUserId' in by ? by.salonUserId : (named?.id ?? null),
    actorName: named ? `${named.firstName} ${named.lastName}`.trim() : (commandLine ?? ''),
    note: event.note ?? '',
  });
}

/** An order's history, oldest first. */
export async function orderHistory(db: Db, orderId: number): Promise<AdminOrderEvent[]> {
  const rows = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.at), asc(orderEvents.id));
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind,
    from: row.fromValue,
    to: row.toValue,
    actor: { kind: row.actor, id: row.actorId, name: row.actorName },
    note: row.note,
  }));
}
