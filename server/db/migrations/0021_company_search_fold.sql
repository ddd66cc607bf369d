-- The back office's search of companies finds a name, city or e-mail typed without its
-- diacritics ("brasov" finds "Brașov", "stefan" finds "Ștefan"), as the catalogue's search
-- does (src/contracts/catalogue-query.ts, foldText): search_text and the words searched for
-- are both folded by search_fold, the marks of decomposed letters taken out, then lower
-- case. lower() alone folds only ASCII letters where the database's locale is C.
CREATE FUNCTION search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT lower(regexp_replace(normalize(value, NFD), '[\u0300-\u036f]', '', 'g')) $$;
--> statement-breakpoint
DROP INDEX IF EXISTS companies_search_idx;
--> statement-breakpoint
ALTER TABLE companies DROP COLUMN search_text;
--> statement-breakpoint
ALTER TABLE companies ADD COLUMN search_text text NOT NULL
  GENERATED ALWAYS AS (
    search_fold(name || E'\n' || tax_number || E'\n' || email || E'\n' || city)
  ) STORED;
--> statement-breakpoint
-- The trigram index again, where pg_trgm is installed (see 0010_company_search.sql).
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
