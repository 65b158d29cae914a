-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it. PGlite loads it at open.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "completed_price_e18" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "completed_price_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_merchant_created_at_idx" ON "payments" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_search_trgm_idx" ON "payments" USING gin ((coalesce("description", '') || ' ' || coalesce("order_id", '') || ' ' || "reference") gin_trgm_ops);