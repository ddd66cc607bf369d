-- Links sent by e-mail that act on an account once (docs/product.md#password-reset and
-- #e-mail-verification): choosing a new password, and confirming the address a user
-- registered with. Only a hash of each token is kept: whoever reads the database cannot
-- follow a link that is still valid.
--
-- When the user's address was confirmed: by following the link sent at registration, or
-- by choosing a new password through a link sent to it. Null: not confirmed yet (every
-- account made before this column existed too: nothing confirmed their addresses).
ALTER TABLE users ADD COLUMN email_verified_at timestamptz(3);
--> statement-breakpoint
CREATE TABLE account_tokens (
  id integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL
    CONSTRAINT account_tokens_purpose_check CHECK (purpose IN ('password-reset', 'verify-email')),
  -- SHA-256 of the token, in hex; the token itself is only in the e-mail.
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz(3) NOT NULL,
  -- Set when the link is followed, or when another link of the same purpose was (a new
  -- password ends every reset link of the account): a link works once.
  used_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- A user's links of one purpose: ended together, and counted.
CREATE INDEX account_tokens_user_idx ON account_tokens (user_id, purpose);
--> statement-breakpoint
-- The daily clean-up of links past their end.
CREATE INDEX account_tokens_expires_idx ON account_tokens (expires_at);
--> statement-breakpoint
-- Requests for such a link, counted per e-mail and per client address like sign-in
-- failures (login_failures), so that every server process applies the same limits.
CREATE TABLE account_link_requests (
  id integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  purpose text NOT NULL
    CONSTRAINT account_link_requests_purpose_check CHECK (purpose IN ('password-reset', 'verify-email')),
  email text NOT NULL,
  ip text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX account_link_requests_email_idx ON account_link_requests (email, created_at);
--> statement-breakpoint
CREATE INDEX account_link_requests_ip_idx ON account_link_requests (ip, created_at);
