-- btree_gin (trusted, PostgreSQL 13+; PGlite loads it at open) lets the search's trigram index hold the merchant too.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "payments_merchant_search_trgm_idx" ON "payments" USING gin ("merchant_id",(regexp_replace(lower(coalesce("description", '') || chr(1) || coalesce("order_id", '') || chr(1) || "reference" || chr(1)), '[^\x01-\x7f]', chr(2), 'g')) gin_trgm_ops);--> statement-breakpoint
DROP INDEX "payments_search_key_trgm_idx";
