-- Accounts: companies, their users, documents for verification, sessions (refresh
-- tokens), the login throttle and server settings such as the token signing key.
CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);
--> statement-breakpoint
CREATE TABLE companies (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'SUSPENDED')),
  is_verified boolean NOT NULL DEFAULT false,
  tax_number text NOT NULL DEFAULT '',
  registration_number text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  state text NOT NULL DEFAULT '',
  postal_code text NOT NULL DEFAULT '',
  country text NOT NULL DEFAULT 'Romania',
  website text NOT NULL DEFAULT '',
  industry text NOT NULL DEFAULT '',
  business_type text NOT NULL DEFAULT '',
  employee_count text NOT NULL DEFAULT '',
  annual_revenue text NOT NULL DEFAULT '',
  status_reason text NOT NULL DEFAULT '',
  verified_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX companies_status_idx ON companies (status, created_at);
--> statement-breakpoint
CREATE TABLE users (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  role text NOT NULL DEFAULT 'USER' CHECK (role IN ('USER', 'ADMIN')),
  company_id integer REFERENCES companies (id),
  notify_orders boolean NOT NULL DEFAULT true,
  notify_products boolean NOT NULL DEFAULT true,
  notify_marketing boolean NOT NULL DEFAULT false,
  deleted_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX users_company_idx ON users (company_id);
--> statement-breakpoint
CREATE TABLE refresh_tokens (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  family_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz(3) NOT NULL,
  rotated_at timestamptz(3),
  revoked_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
--> statement-breakpoint
CREATE TABLE login_failures (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  ip text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX login_failures_email_idx ON login_failures (email, created_at);
--> statement-breakpoint
CREATE INDEX login_failures_ip_idx ON login_failures (ip, created_at);
--> statement-breakpoint
CREATE TABLE company_documents (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  type text NOT NULL CHECK (type IN ('BUSINESS_LICENSE', 'VAT_REGISTRATION', 'TRADE_REGISTER', 'IDENTITY_DOCUMENT', 'BANK_STATEMENT', 'TAX_CERTIFICATE', 'INCORPORATION_DOCUMENT', 'OTHER')),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  original_name text NOT NULL,
  stored_name text NOT NULL UNIQUE,
  content_type text NOT NULL,
  size integer NOT NULL,
  data bytea NOT NULL,
  review_notes text NOT NULL DEFAULT '',
  uploaded_at timestamptz(3) NOT NULL DEFAULT now(),
  reviewed_at timestamptz(3),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX company_documents_company_idx ON company_documents (company_id, uploaded_at);
