-- A product's EAN-13 barcode (docs/product.md#back-office): the number printed under the
-- barcode on its pack, which a sales rep scans to add the product to an order. Staff enter
-- it on the product's page. The server checks the check digit (src/contracts/barcodes.ts);
-- the database that it is 13 digits and that no two products share one.
--
-- Products already in the catalogue get none here: their barcodes are what is printed on
-- their packs, which only staff know, and a number made up here would make a scan find
-- nothing, or another product. They stay as they are (their search text and updated_at
-- too), so devices have nothing to fetch again. A new demo database gets the demo
-- catalogue's barcodes from its seeding.
ALTER TABLE products ADD COLUMN ean text
  CONSTRAINT products_ean_check CHECK (ean ~ '^[0-9]{13}$');
--> statement-breakpoint
-- Only the products that have one: any number of products may have none.
CREATE UNIQUE INDEX products_ean_idx ON products (ean) WHERE ean IS NOT NULL;
