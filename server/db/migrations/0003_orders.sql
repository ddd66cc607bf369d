-- Carts, orders and the idempotency records that make every replayed request count once.
CREATE TABLE cart_items (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id integer NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  quantity integer NOT NULL CHECK (quantity > 0),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, product_id)
);
--> statement-breakpoint
CREATE SEQUENCE order_number_seq START 1001;
--> statement-breakpoint
CREATE TABLE orders (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_number text NOT NULL UNIQUE,
  company_id integer NOT NULL REFERENCES companies (id),
  user_id integer NOT NULL REFERENCES users (id),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'CONFIRMED', 'PROCESSING', 'SHIPPED', 'DELIVERED', 'CANCELLED')),
  payment_status text NOT NULL DEFAULT 'PENDING' CHECK (payment_status IN ('PENDING', 'PAID', 'FAILED', 'REFUNDED')),
  payment_method text NOT NULL DEFAULT 'BANK_TRANSFER',
  currency text NOT NULL DEFAULT 'EUR',
  subtotal numeric(12, 2) NOT NULL,
  total numeric(12, 2) NOT NULL,
  notes text NOT NULL DEFAULT '',
  client_reference text NOT NULL DEFAULT '',
  ship_first_name text NOT NULL,
  ship_last_name text NOT NULL,
  ship_street text NOT NULL,
  ship_city text NOT NULL,
  ship_zip_code text NOT NULL,
  ship_country text NOT NULL,
  ship_phone text NOT NULL,
  cancellation_reason text NOT NULL DEFAULT '',
  cancelled_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX orders_company_idx ON orders (company_id, created_at DESC);
--> statement-breakpoint
CREATE INDEX orders_status_idx ON orders (status, created_at DESC);
--> statement-breakpoint
CREATE TABLE order_items (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  product_id integer REFERENCES products (id) ON DELETE SET NULL,
  product_name text NOT NULL,
  product_sku text NOT NULL,
  product_images text[] NOT NULL DEFAULT '{}',
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_price numeric(10, 2) NOT NULL,
  total_price numeric(12, 2) NOT NULL
);
--> statement-breakpoint
CREATE INDEX order_items_order_idx ON order_items (order_id);
--> statement-breakpoint
CREATE TABLE idempotency_keys (
  user_id integer NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  response_status integer NOT NULL,
  response_body text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
--> statement-breakpoint
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
