-- What the back office's dashboard counts (server/services/dashboard.ts): documents waiting
-- for review, and the orders placed since midnight (an order also for the staff's list of
-- orders, newest first). Pending companies and pending orders have their indexes already.
-- Products low on stock are counted by reading the catalogue: an index on the stock would
-- have to change with every order placed or cancelled.
CREATE INDEX company_documents_status_idx ON company_documents (status);
--> statement-breakpoint
CREATE INDEX orders_created_idx ON orders (created_at DESC, id DESC);
