-- Salons a sales rep registers at the booth, and the orders it takes for them before staff
-- have verified them (docs/product.md#field-sales).
--
-- The rep who registered the company (null: the salon registered itself). It stays named
-- after staff assign the company to another rep.
ALTER TABLE companies ADD COLUMN registered_by_rep_id integer REFERENCES users (id);
--> statement-breakpoint
-- The tax number as a registration at the booth compares it (services/sales-reps.ts,
-- taxNumberKey): without spaces, in upper case, without a leading "RO".
CREATE INDEX companies_tax_key_idx
  ON companies (regexp_replace(upper(regexp_replace(tax_number, '\s', '', 'g')), '^RO', ''));
--> statement-breakpoint
-- An order a rep takes for a customer staff have not verified yet waits for them
-- (AWAITING_VERIFICATION): approving the company makes it PENDING, rejecting it cancels it.
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_status_check;
--> statement-breakpoint
ALTER TABLE orders ADD CONSTRAINT orders_status_check CHECK (status IN ('AWAITING_VERIFICATION', 'PENDING', 'CONFIRMED', 'PROCESSING', 'SHIPPED', 'DELIVERED', 'CANCELLED'));
--> statement-breakpoint
-- The back office's list of orders filtered by the rep who placed them, newest first.
CREATE INDEX orders_placed_by_rep_idx ON orders (placed_by_rep_id, created_at DESC, id DESC)
  WHERE placed_by_rep_id IS NOT NULL;
