-- The back office's audit log: one row per staff action, written in the transaction of the
-- change it records (server/services/audit.ts). The actor's e-mail and name are kept as
-- they were at that moment, so that a later change of the account does not rewrite what
-- happened. `before` and `after` hold the plain fields the action changed.
CREATE TABLE audit_log (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz(3) NOT NULL DEFAULT now(),
  actor_id integer NOT NULL REFERENCES users (id),
  actor_email text NOT NULL,
  actor_name text NOT NULL,
  action text NOT NULL CHECK (action IN ('company.approve', 'company.reject', 'company.suspend', 'company.reactivate', 'company.edit', 'document.approve', 'document.reject', 'order.status', 'order.payment')),
  entity_type text NOT NULL CHECK (entity_type IN ('company', 'document', 'order')),
  entity_id integer NOT NULL,
  company_id integer REFERENCES companies (id),
  before jsonb,
  after jsonb,
  note text NOT NULL DEFAULT ''
);
--> statement-breakpoint
-- Every list of the log is newest first, with or without one of its filters.
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX audit_log_company_idx ON audit_log (company_id, at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC, id DESC);
--> statement-breakpoint
-- An entry is never changed or removed: the server only adds and reads them, and the
-- database refuses anything else, whoever asks.
CREATE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log entries are never changed or removed'
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_unchangeable
  BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION refuse_audit_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_untruncatable
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change();
