-- Server processes on PostgreSQL keep their copies under the versions of 0006 and learn of
-- each move from its announcement. Each listening connection records here, per topic, the
-- newest version it has been told of, and renews `seen_at` every second. A process that
-- changed something waits, before it answers, until every listener seen lately has
-- recorded that change (the way a synchronous standby confirms a commit). A listener not
-- seen for a few seconds stops trusting its copies by itself and is not waited for.
-- See server/services/change-versions.ts.
CREATE TABLE change_listeners (
  id uuid PRIMARY KEY,
  seen_at timestamptz NOT NULL,
  catalogue bigint NOT NULL,
  accounts bigint NOT NULL
);
--> statement-breakpoint
-- The announcement now says the version it moved to ("catalogue 42"): a listener records
-- what it was told, never a version read later that it has not been told of yet.
CREATE OR REPLACE FUNCTION move_change_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
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
    WHERE topic = TG_ARGV[0]
    RETURNING version INTO moved;
  PERFORM pg_notify('portal_changes', TG_ARGV[0] || ' ' || moved);
  RETURN NULL;
END
$$;
