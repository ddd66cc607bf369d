/**
 * Checks an outbox entry's request against the body schema the server itself applies
 * (src/contracts/*-schemas.ts) before it is sent. An entry that the server would refuse
 * whatever happens (a damaged record, one written by an older version of the app) needs
 * attention at once, with a message naming the field, instead of travelling to be refused.
 * Loaded with the sync engine, never by a first screen.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ProfileBodySchema } from '../../contracts/accounts-schemas';
import {
  CancelOrderBodySchema,
  CartAddBodySchema,
  CartQuantityBodySchema,
  CheckoutBodySchema,
} from '../../contracts/orders-schemas';
import { RepOrderBodySchema } from '../../contracts/field-sales-schemas';
import { OrderListBodySchema, OrderListItemBodySchema } from '../../contracts/order-lists-schemas';
import { bodyOf, RepCustomerFormSchema } from '../../contracts/form-schemas';
import type { OutboxKind, OutboxPayload, ServerProblem } from './outbox-rules';
import { isListChange, requestFor } from './outbox-rules';

/** The code of the problem, a key under `serverErrors.` in the locale files. */
export const INVALID_CHANGE = 'CHANGE_INVALID';

/** The body each kind of entry sends, as the server checks it (null: no body). */
const BODY_SCHEMAS: Record<OutboxKind, TSchema | null> = {
  'cart.add': CartAddBodySchema,
  'cart.update': CartQuantityBodySchema,
  'cart.remove': null,
  'cart.clear': null,
  checkout: CheckoutBodySchema,
  'order.cancel': CancelOrderBodySchema,
  'profile.update': ProfileBodySchema,
  'rep.order': RepOrderBodySchema,
  'rep.customer': bodyOf(RepCustomerFormSchema),
  // A file: checked by the server for its type and size, as the salon's are.
  'rep.document': null,
  'list.put': OrderListBodySchema,
  'list.delete': null,
  'list.item.put': OrderListItemBodySchema,
  'list.item.delete': null,
};

const isId = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 2_147_483_647;

/** The id an entry puts in its path, if any: it must be one the server accepts too. */
function pathIdOf(payload: OutboxPayload): { field: string; value: unknown } | undefined {
  switch (payload.kind) {
    case 'cart.update':
    case 'cart.remove':
    case 'list.item.put':
    case 'list.item.delete':
      return { field: 'productId', value: payload.productId };
    case 'order.cancel':
      return { field: 'orderId', value: payload.orderId };
    case 'rep.order':
    case 'rep.document':
      return { field: 'customerId', value: payload.customerId };
    default:
      return undefined;
  }
}

const invalid = (field: string, what: string): ServerProblem => ({
  message: `This change cannot be sent: ${field} ${what}.`,
  code: INVALID_CHANGE,
  params: { field },
});

/** A list's id as the server takes it in a path: a UUID. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why the server would refuse this entry's request as it stands, or undefined if it would not. */
export function problemOfPayload(payload: OutboxPayload): ServerProblem | undefined {
  const schema = BODY_SCHEMAS[payload.kind] as TSchema | null | undefined;
  if (schema === undefined) return invalid('kind', 'is not a change the app knows');
  if (isListChange(payload) && !UUID.test(String(payload.listId)))
    return invalid('listId', 'must be a UUID');
  const pathId = pathIdOf(payload);
  if (pathId && !isId(pathId.value))
    return invalid(pathId.field, 'must be a positive whole number');
  if (schema === null) return undefined;
  const body = requestFor(payload).body;
  const [first] = Value.Errors(schema, body);
  if (!first) return undefined;
  const field = first.instancePath.split('/').filter(Boolean).join('.') || 'body';
  return invalid(field, first.message);
}
