-- Staff accounts managed from the back office (docs/product.md#back-office, People).
-- A deactivated account keeps its row (the audit log and orders name it) but cannot sign
-- in, and every lookup of a signed-in account leaves it out (services/accounts.ts): moving
-- the accounts' version (0006) ends its kept sessions in every server process at once.
ALTER TABLE users ADD COLUMN deactivated_at timestamptz(3);
--> statement-breakpoint
-- When the account last signed in (null: never, or not since this column exists).
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz(3);
--> statement-breakpoint
-- A decision made with `npm run admin` has no staff account behind it: the entry says it
-- came from the command line, with the operating-system user who ran it as its name.
ALTER TABLE audit_log ALTER COLUMN actor_id DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE audit_log ADD COLUMN actor_via text NOT NULL DEFAULT 'back-office'
  CHECK (actor_via IN ('back-office', 'command-line'));
--> statement-breakpoint
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_known
  CHECK (actor_id IS NOT NULL OR actor_via = 'command-line');
--> statement-breakpoint
-- Several parts of the back office add actions and entities of their own; the list of each
-- is kept in one place, src/contracts/admin.ts (AUDIT_ACTIONS, AUDIT_ENTITIES), which the
-- server checks every entry against. The database keeps their shape only, so that adding
-- an action needs no migration that would have to know every other one.
ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_action_check;
--> statement-breakpoint
ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_entity_type_check;
--> statement-breakpoint
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_shape
  CHECK (action ~ '^[a-z]+(\.[a-zA-Z-]+)+$');
--> statement-breakpoint
ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_type_shape
  CHECK (entity_type ~ '^[a-z]+$');
