-- Versions of what server processes keep in memory: the catalogue (products, categories)
-- and accounts (users, companies, sessions). Every transaction that changes one moves its
-- version once, whichever process made it, and announces it on the channel
-- "portal_changes". A process serves a kept copy only while its version is unchanged
-- (server/services/change-versions.ts). Replaces the catalogue's own version of 0005.
CREATE TABLE change_versions (
  topic text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0,
  -- The transaction that last moved it: one move per transaction, however many rows.
  changed_by bigint
);
--> statement-breakpoint
INSERT INTO change_versions (topic, version)
  SELECT 'catalogue', version FROM catalogue_version
  UNION ALL SELECT 'accounts', 0;
--> statement-breakpoint
DROP TRIGGER products_move_catalogue_version ON products;
--> statement-breakpoint
DROP TRIGGER categories_move_catalogue_version ON categories;
--> statement-breakpoint
DROP FUNCTION move_catalogue_version();
--> statement-breakpoint
DROP TABLE catalogue_version;
--> statement-breakpoint
CREATE FUNCTION move_change_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Moved already by this transaction (one row of many changed): nothing more to do.
  PERFORM 1 FROM change_versions WHERE topic = TG_ARGV[0] AND changed_by = txid_current();
  IF FOUND THEN
    RETURN NULL;
  END IF;
  -- Every version row is locked in one order, whichever topic moves first, so that two
  -- transactions changing both never wait for each other in a circle.
  PERFORM 1 FROM change_versions ORDER BY topic FOR UPDATE;
  UPDATE change_versions
    SET version = version + 1, changed_by = txid_current()
    WHERE topic = TG_ARGV[0] AND changed_by IS DISTINCT FROM txid_current();
  PERFORM pg_notify('portal_changes', TG_ARGV[0]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Deferred to the commit: the version rows are locked last, after every row the
-- transaction locks, so they never take part in a deadlock, and a version moves in the
-- same commit as the change it stands for.
CREATE CONSTRAINT TRIGGER products_move_version
  AFTER INSERT OR UPDATE OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION move_change_version('catalogue');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER categories_move_version
  AFTER INSERT OR UPDATE OR DELETE ON categories
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION move_change_version('catalogue');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_move_version
  AFTER INSERT OR UPDATE OR DELETE ON users
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION move_change_version('accounts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER companies_move_version
  AFTER INSERT OR UPDATE OR DELETE ON companies
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION move_change_version('accounts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER refresh_tokens_move_version
  AFTER INSERT OR UPDATE OR DELETE ON refresh_tokens
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION move_change_version('accounts');
