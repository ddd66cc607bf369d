-- The back office's catalogue (server/services/admin-catalogue.ts).
--
-- active: a product staff took off sale. It is left out of every storefront answer and of
-- the device's mirror, and carts and checkout refuse it as a product that is not there.
-- translations: the product's name and descriptions in English and Italian,
-- {"en": {"name", "shortDescription", "description"}, "it": {...}}; the columns name,
-- short_description and description hold the Romanian texts, every language's fallback.
ALTER TABLE products ADD COLUMN active boolean NOT NULL DEFAULT true;
--> statement-breakpoint
ALTER TABLE products ADD COLUMN translations jsonb NOT NULL DEFAULT '{}';
--> statement-breakpoint
-- A category's name in English and Italian, {"en": "...", "it": "..."}; name is Romanian.
ALTER TABLE categories ADD COLUMN names jsonb NOT NULL DEFAULT '{}';
--> statement-breakpoint
-- The staff list of products: by name then id, and a product's orders (for deletion).
CREATE INDEX IF NOT EXISTS order_items_product_idx ON order_items (product_id);
--> statement-breakpoint
-- Staff changes to products and categories are audited. The allowed actions and entities
-- are added to what the checks allow already (other migrations add their own the same
-- way), read from the checks themselves.
DO $$
DECLARE
  check_name text;
  check_column text;
  added text[];
  allowed text[];
BEGIN
  FOR check_name, check_column, added IN
    SELECT * FROM (VALUES
      ('audit_log_action_check', 'action', ARRAY[
        'product.create', 'product.edit', 'product.activate', 'product.deactivate',
        'product.delete', 'product.pictureAdd', 'product.pictureRemove',
        'product.pictureOrder', 'category.create', 'category.rename', 'category.order']),
      ('audit_log_entity_type_check', 'entity_type', ARRAY['product', 'category'])
    ) AS checks (name, col, values_added)
  LOOP
    SELECT coalesce(array_agg(m[1]), '{}') INTO allowed
      FROM pg_constraint c,
        regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') AS m
      WHERE c.conrelid = 'audit_log'::regclass AND c.conname = check_name;
    allowed := ARRAY(SELECT DISTINCT unnest(allowed || added) ORDER BY 1);
    EXECUTE format('ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS %I', check_name);
    EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT %I CHECK (%I = ANY (%L::text[]))',
      check_name, check_column, allowed);
  END LOOP;
END
$$;
