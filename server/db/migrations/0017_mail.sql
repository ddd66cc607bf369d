-- E-mail (docs/product.md#e-mail). A message is a row of mail_queue, written in the
-- transaction of the change that causes it; the server's mail worker sends it through SMTP
-- (SMTP_URL) or writes it as an .eml file under the data folder, and retries on failure.
--
-- The language a user reads its e-mail in: the one the app showed when it registered or
-- last signed in.
ALTER TABLE users ADD COLUMN language text NOT NULL DEFAULT 'ro'
  CONSTRAINT users_language_check CHECK (language IN ('ro', 'en', 'it'));
--> statement-breakpoint
CREATE TABLE mail_queue (
  id integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  to_address text NOT NULL,
  -- The user it is written to, when it is one (kept when the user is deleted: the record of
  -- what was sent stays).
  user_id integer REFERENCES users (id) ON DELETE SET NULL,
  language text NOT NULL CONSTRAINT mail_queue_language_check CHECK (language IN ('ro', 'en', 'it')),
  -- Which message (server/services/mail/kinds.ts) and what it says; rendered when sent.
  kind text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
  sent_at timestamptz(3),
  last_error text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The worker's question: which unsent messages are due.
CREATE INDEX mail_queue_due_idx ON mail_queue (next_attempt_at, id) WHERE sent_at IS NULL;
--> statement-breakpoint
-- The back office's list, newest first.
CREATE INDEX mail_queue_created_idx ON mail_queue (created_at DESC, id DESC);
