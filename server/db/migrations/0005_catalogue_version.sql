-- The catalogue's version: moved on by every transaction that changes products or
-- categories, whichever server process made it. Catalogue answers kept in a process's
-- memory are served only while it is unchanged (server/services/catalogue-cache.ts).
CREATE TABLE catalogue_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL DEFAULT 0,
  -- The transaction that last moved it: one move per transaction, however many rows.
  changed_by bigint
);
--> statement-breakpoint
INSERT INTO catalogue_version DEFAULT VALUES;
--> statement-breakpoint
CREATE FUNCTION move_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalogue_version
    SET version = version + 1, changed_by = txid_current()
    WHERE changed_by IS DISTINCT FROM txid_current();
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Deferred to the commit: the version row is locked last, after every product row the
-- transaction locks, so it never takes part in a deadlock, and it moves in the same
-- commit as the change it stands for.
CREATE CONSTRAINT TRIGGER products_move_catalogue_version
  AFTER INSERT OR UPDATE OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION move_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER categories_move_catalogue_version
  AFTER INSERT OR UPDATE OR DELETE ON categories
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION move_catalogue_version();
