-- Sales reps (docs/product.md#field-sales): accounts of the maker that take orders for the
-- salons assigned to them. Staff create them on the People page and assign each company
-- at most one rep, on the company's page.
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check;
--> statement-breakpoint
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('USER', 'SALES_REP', 'ADMIN'));
--> statement-breakpoint
-- A rep's account has no company of its own: it acts for the companies assigned to it.
ALTER TABLE users ADD CONSTRAINT users_staff_without_company
  CHECK (role = 'USER' OR company_id IS NULL);
--> statement-breakpoint
-- The company's rep; a deactivated rep stays assigned until staff choose another.
ALTER TABLE companies ADD COLUMN sales_rep_id integer REFERENCES users (id);
--> statement-breakpoint
CREATE INDEX companies_sales_rep_idx ON companies (sales_rep_id, id) WHERE sales_rep_id IS NOT NULL;
--> statement-breakpoint
-- An order a rep placed for its customer names the rep (null: the salon placed it).
ALTER TABLE orders ADD COLUMN placed_by_rep_id integer REFERENCES users (id);
--> statement-breakpoint
-- The customer's signature drawn on the rep's screen: a small PNG, kept out of the order's
-- row so that lists of orders never read it.
CREATE TABLE order_signatures (
  order_id integer PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  data bytea NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
ALTER TABLE order_events DROP CONSTRAINT IF EXISTS order_events_actor_check;
--> statement-breakpoint
ALTER TABLE order_events ADD CONSTRAINT order_events_actor_check
  CHECK (actor IN ('salon', 'staff', 'rep'));
