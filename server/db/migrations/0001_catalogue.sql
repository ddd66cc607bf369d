-- The public catalogue: categories, products and the files served under /uploads.
-- Statements are separated by breakpoint lines so that both engines run them one at a time.
CREATE TABLE categories (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  position integer NOT NULL DEFAULT 0
);
--> statement-breakpoint
CREATE TABLE products (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sku text NOT NULL UNIQUE,
  name text NOT NULL,
  short_description text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  category_id integer NOT NULL REFERENCES categories (id),
  price numeric(10, 2) NOT NULL CHECK (price >= 0),
  stock integer NOT NULL DEFAULT 0 CHECK (stock >= 0),
  tags text[] NOT NULL DEFAULT '{}',
  images text[] NOT NULL DEFAULT '{}',
  search_text text NOT NULL,
  name_key text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- Orders of the catalogue query use byte order ("C"), never the database's collation, so
-- that the device's mirror can reproduce them exactly.
CREATE INDEX products_name_key_idx ON products (name_key COLLATE "C", id);
--> statement-breakpoint
CREATE INDEX products_category_idx ON products (category_id);
--> statement-breakpoint
CREATE INDEX products_created_idx ON products (created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX products_updated_idx ON products (updated_at);
--> statement-breakpoint
CREATE TABLE media (
  path text PRIMARY KEY,
  content_type text NOT NULL,
  data bytea NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE newsletter_subscriptions (
  email text PRIMARY KEY,
  locale text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
