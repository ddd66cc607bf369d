/**
 * A salon user's order lists as the screens change and show them
 * (docs/product.md#order-lists). Every change is an outbox entry, as the cart's are, so it
 * is made offline too and sent in order once the server can be reached; the lists shown
 * are the server's (kept by ./order-lists) with the waiting changes on top, so that a
 * change shows at once and the server's answer takes its place without a jump.
 *
 * The device checks the server's limits first (a name, 50 lists, 200 products, a
 * quantity): a change it would refuse is not queued, and the screen says why at once.
 */
import {
  MAX_LIST_ITEMS,
  MAX_LIST_NAME_LENGTH,
  MAX_ORDER_LISTS,
  type OrderList,
} from '../../contracts/order-lists';
import { MAX_LINE_QUANTITY } from '../../contracts/orders';
import { signedInUserId } from '../auth/session-store';
import { db } from '../db/db';
import { requestSync } from './device';
import { useDeviceQuery } from './engine-loader';
import { entryOf } from './outbox';
import { isListChange, type ListPayload, type OutboxEntry } from './outbox-rules';
import { useSignedInUserId } from './use-device-data';

/** A list as the user sees it. */
export interface ListView extends OrderList {
  /** Its changes saved on this device that the server has not confirmed yet. */
  waiting: number;
}

/** Why a change of a list is not made. */
export type ListProblem =
  'nameRequired' | 'nameTooLong' | 'tooManyLists' | 'tooManyItems' | 'quantity' | 'notFound';

/** A change the server would refuse, not queued: `problem` says why. */
export class ListChangeRefused extends Error {
  constructor(readonly problem: ListProblem) {
    super(`The order list change was not made: ${problem}`);
    this.name = 'ListChangeRefused';
  }
}

/**
 * The lists the user sees: `base` (the server's, oldest first) with `entries` (the user's
 * waiting list changes, in the outbox's order) applied on top. A list made on the device
 * comes after the server's; a change of a list the device does not know changes nothing.
 */
export function applyListEntries(
  base: readonly OrderList[],
  entries: readonly OutboxEntry[],
): ListView[] {
  let lists: ListView[] = base.map((list) => ({
    ...list,
    items: list.items.map((item) => ({ ...item })),
    waiting: 0,
  }));
  for (const entry of entries) {
    const payload = entry.payload;
    if (!isListChange(payload)) continue;
    const list = lists.find((kept) => kept.id === payload.listId);
    if (payload.kind === 'list.delete') {
      lists = lists.filter((kept) => kept.id !== payload.listId);
      continue;
    }
    if (payload.kind === 'list.put' && !list) {
      lists.push({
        id: payload.listId,
        name: payload.listName,
        items: [],
        createdAt: entry.createdAt,
        updatedAt: entry.createdAt,
        waiting: 1,
      });
      continue;
    }
    if (!list) continue;
    list.waiting += 1;
    list.updatedAt = entry.createdAt;
    if (payload.kind === 'list.put') list.name = payload.listName;
    else if (payload.kind === 'list.item.delete') {
      list.items = list.items.filter((item) => item.productId !== payload.productId);
    } else {
      const item = list.items.find((held) => held.productId === payload.productId);
      if (item) item.quantity = payload.quantity;
      else list.items.push({ productId: payload.productId, quantity: payload.quantity });
    }
  }
  return lists;
}

/** The user's lists as the server has them with the waiting changes on top, oldest first. */
export async function readOrderLists(userId: number | null): Promise<ListView[]> {
  if (userId === null) return [];
  const [stored, entries] = await Promise.all([
    db.orderLists.where('userId').equals(userId).toArray(),
    db.outbox.where('userId').equals(userId).sortBy('id'),
  ]);
  const base = stored
    .filter((kept) => !kept.deleted)
    .map((kept) => kept.list)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  // A refused change is not shown as made: the sync centre shows it, to edit or discard.
  return applyListEntries(
    base,
    entries.filter((entry) => entry.state !== 'attention' && isListChange(entry.payload)),
  );
}

/** The signed-in user's lists, live; undefined until they have been read. */
export function useOrderLists(): ListView[] | undefined {
  const userId = useSignedInUserId();
  return useDeviceQuery(() => readOrderLists(userId), [userId]);
}

function signedIn(): number {
  const userId = signedInUserId();
  if (userId === null) throw new Error('Sign in first');
  return userId;
}

async function listOf(userId: number, listId: string): Promise<ListView> {
  const list = (await readOrderLists(userId)).find((kept) => kept.id === listId);
  if (!list) throw new ListChangeRefused('notFound');
  return list;
}

/** A list's name as the server keeps it: trimmed, 1–60 characters. */
function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ListChangeRefused('nameRequired');
  if (trimmed.length > MAX_LIST_NAME_LENGTH) throw new ListChangeRefused('nameTooLong');
  return trimmed;
}

function checkedQuantity(quantity: number): number {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY) {
    throw new ListChangeRefused('quantity');
  }
  return quantity;
}

async function queue(payload: ListPayload): Promise<void> {
  await db.outbox.add(entryOf(payload));
  requestSync();
}

/** Makes a list under a new id, which it keeps on the server too; resolves with the id. */
export async function makeList(name: string): Promise<string> {
  const listName = checkedName(name);
  if ((await readOrderLists(signedIn())).length >= MAX_ORDER_LISTS) {
    throw new ListChangeRefused('tooManyLists');
  }
  const listId = crypto.randomUUID();
  await queue({ kind: 'list.put', listId, listName });
  return listId;
}

export async function renameList(listId: string, name: string): Promise<void> {
  const listName = checkedName(name);
  await listOf(signedIn(), listId);
  await queue({ kind: 'list.put', listId, listName });
}

export async function deleteList(listId: string): Promise<void> {
  const list = await listOf(signedIn(), listId);
  await queue({ kind: 'list.delete', listId, listName: list.name });
}

/** Sets how many of a product the list holds, adding the product after the others if new. */
export async function setListItem(
  listId: string,
  productId: number,
  quantity: number,
): Promise<void> {
  checkedQuantity(quantity);
  const list = await listOf(signedIn(), listId);
  const held = list.items.some((item) => item.productId === productId);
  if (!held && list.items.length >= MAX_LIST_ITEMS) throw new ListChangeRefused('tooManyItems');
  await queue({ kind: 'list.item.put', listId, listName: list.name, productId, quantity });
}

/**
 * "Add to list": `quantity` more of a product, within a line's largest quantity. Queued as
 * the quantity the list then holds, so that a change sent twice still adds once. Resolves
 * with that quantity.
 */
export async function addToList(
  listId: string,
  productId: number,
  quantity: number,
): Promise<number> {
  checkedQuantity(quantity);
  const list = await listOf(signedIn(), listId);
  const held = list.items.find((item) => item.productId === productId)?.quantity ?? 0;
  const total = Math.min(MAX_LINE_QUANTITY, held + quantity);
  await setListItem(listId, productId, total);
  return total;
}

export async function removeListItem(listId: string, productId: number): Promise<void> {
  const list = await listOf(signedIn(), listId);
  await queue({ kind: 'list.item.delete', listId, listName: list.name, productId });
}
