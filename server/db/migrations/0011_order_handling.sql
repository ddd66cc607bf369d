-- The back office's handling of orders (server/services/admin-orders.ts): the tracking
-- number a shipped order carries, the history of each order's status and payment, a
-- cancellation by staff in the audit log, and the indexes of the staff's list of orders
-- (filters by status, payment, company and dates, a search of the number, three sorts),
-- quick with a hundred thousand orders.
ALTER TABLE orders ADD COLUMN tracking_number text NOT NULL DEFAULT '';
--> statement-breakpoint
-- One row per change of an order's status or payment, written in the transaction of the
-- change: its creation (PENDING, from nothing), the salon's cancellation, each staff move.
-- `actor` says who: the salon (its user) or staff (the staff member, named as then).
CREATE TABLE order_events (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  at timestamptz(3) NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('status', 'payment')),
  from_value text,
  to_value text NOT NULL,
  actor text NOT NULL CHECK (actor IN ('salon', 'staff')),
  actor_id integer REFERENCES users (id),
  actor_name text NOT NULL DEFAULT '',
  note text NOT NULL DEFAULT ''
);
--> statement-breakpoint
CREATE INDEX order_events_order_idx ON order_events (order_id, at, id);
--> statement-breakpoint
-- Orders placed before this history began: their creation, as the salon's.
INSERT INTO order_events (order_id, at, kind, from_value, to_value, actor, actor_id)
  SELECT id, created_at, 'status', NULL, 'PENDING', 'salon', user_id FROM orders;
--> statement-breakpoint
ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
--> statement-breakpoint
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN ('company.approve', 'company.reject', 'company.suspend', 'company.reactivate', 'company.edit', 'document.approve', 'document.reject', 'order.status', 'order.payment', 'order.cancel'));
--> statement-breakpoint
-- Each filter of the list, newest first, the id breaking ties (they were without the id).
DROP INDEX orders_status_idx;
--> statement-breakpoint
CREATE INDEX orders_status_idx ON orders (status, created_at DESC, id DESC);
--> statement-breakpoint
DROP INDEX orders_company_idx;
--> statement-breakpoint
CREATE INDEX orders_company_idx ON orders (company_id, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX orders_payment_idx ON orders (payment_status, created_at DESC, id DESC);
--> statement-breakpoint
-- The sort by total; the sort by number has the number's unique index.
CREATE INDEX orders_total_idx ON orders (total, id);
--> statement-breakpoint
-- A search is a substring of the number in lower case: through a trigram index where
-- pg_trgm is installed (migration 0010), else by reading the table, with the same results.
DO $$
DECLARE
  trgm_schema name;
BEGIN
  SELECT n.nspname INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX orders_number_search_idx ON orders'
      ' USING gin (lower(order_number) %I.gin_trgm_ops)',
      trgm_schema);
  END IF;
END
$$;
