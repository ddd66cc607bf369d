-- Registrations counted per client address, so that every server process applies the same
-- limit; and documents written to the database as they arrive, in chunks, before the
-- request that carries them is accepted: such a document has no company yet (company_id
-- NULL) until the request's final transaction links it, and is removed if the request
-- fails. Documents stored before keep their bytes in company_documents.data.
CREATE TABLE registration_attempts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ip text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX registration_attempts_ip_idx ON registration_attempts (ip, created_at);
--> statement-breakpoint
CREATE INDEX registration_attempts_created_idx ON registration_attempts (created_at);
--> statement-breakpoint
ALTER TABLE company_documents ALTER COLUMN company_id DROP NOT NULL;
--> statement-breakpoint
CREATE TABLE document_chunks (
  document_id integer NOT NULL REFERENCES company_documents (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (document_id, seq)
);
--> statement-breakpoint
-- PDF, JPEG and PNG are compressed already: trying again only costs time.
ALTER TABLE document_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
