-- What a sales rep typed at the booth for a salon that was its customer already (POST
-- /api/rep/customers answered 200), where the company's record says otherwise or nothing:
-- the server keeps its verified record as it is, and staff read these on the company's page,
-- apply them by correcting the record or dismiss them (docs/product.md#field-sales). An
-- entry is settled once the record says all it holds, or once dismissed.
CREATE TABLE booth_details (
  id integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  company_id integer NOT NULL REFERENCES companies (id),
  rep_id integer NOT NULL REFERENCES users (id),
  -- The fields as typed ({"companyPhone": "+40 721 000 999", ...}), those the record did not say.
  details jsonb NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  settled_at timestamptz(3),
  -- The staff member who dismissed the entry or corrected the record; null while open.
  settled_by integer REFERENCES users (id),
  settled_as text CONSTRAINT booth_details_settled_as_check CHECK (settled_as IN ('applied', 'dismissed')),
  CONSTRAINT booth_details_settled_check CHECK ((settled_at IS NULL) = (settled_as IS NULL))
);
--> statement-breakpoint
-- A company's open entries, and the dashboard's count of them.
CREATE INDEX booth_details_open_idx ON booth_details (company_id, id) WHERE settled_at IS NULL;
