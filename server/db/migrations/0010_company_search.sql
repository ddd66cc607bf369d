-- The back office's list of companies (server/services/admin.ts, listCompanyPage): a
-- search, a status filter, sorting by date, name or status (the id breaking ties), a page
-- at a time, quick with tens of thousands of companies.
--
-- search_text: the name, tax number, e-mail and city in lower case, one per line, kept by
-- the database itself. A search is a substring of it.
ALTER TABLE companies ADD COLUMN search_text text NOT NULL
  GENERATED ALWAYS AS (lower(name || E'\n' || tax_number || E'\n' || email || E'\n' || city)) STORED;
--> statement-breakpoint
CREATE INDEX companies_created_idx ON companies (created_at, id);
--> statement-breakpoint
CREATE INDEX companies_name_idx ON companies (lower(name), id);
--> statement-breakpoint
-- Was (status, created_at): the id now breaks ties, for a status filter and a status sort.
DROP INDEX companies_status_idx;
--> statement-breakpoint
CREATE INDEX companies_status_idx ON companies (status, created_at, id);
--> statement-breakpoint
-- A substring is found through a trigram index where the pg_trgm extension can be had: it
-- comes with PostgreSQL's own packages and with the embedded engine (database.ts loads it).
-- Where it cannot be installed (no right to), the search reads the table instead, with the
-- same results, and the migration still succeeds.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available: the search of companies reads the whole table';
END
$$;
--> statement-breakpoint
-- Named with the schema the extension lives in, which need not be on the search path.
-- fastupdate off: a new company goes into the index at once, not into a pending list that
-- only a VACUUM empties (the embedded engine has no autovacuum); companies are few to add.
DO $$
DECLARE
  trgm_schema name;
BEGIN
  SELECT n.nspname INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX companies_search_idx ON companies'
      ' USING gin (search_text %I.gin_trgm_ops) WITH (fastupdate = off)',
      trgm_schema);
  END IF;
END
$$;
