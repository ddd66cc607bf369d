-- A salon user's order lists (docs/product.md#order-lists). A list's id is a UUID chosen
-- by the device that made it, so that a list made offline keeps its id on the server.
CREATE TABLE order_lists (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX order_lists_user_idx ON order_lists (user_id, created_at, id);
--> statement-breakpoint
CREATE TABLE order_list_items (
  list_id uuid NOT NULL REFERENCES order_lists (id) ON DELETE CASCADE,
  product_id integer NOT NULL REFERENCES products (id),
  quantity integer NOT NULL CONSTRAINT order_list_items_quantity_check CHECK (quantity > 0),
  added_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (list_id, product_id)
);
