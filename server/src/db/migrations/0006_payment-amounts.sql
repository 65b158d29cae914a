CREATE TABLE "payment_amounts" (
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"receiving_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"payment_id" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "indexer_blocks" ADD COLUMN "block_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_requested" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_amounts" ADD CONSTRAINT "payment_amounts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_amounts_key" ON "payment_amounts" USING btree ("chain_id","token_address","receiving_address","amount");--> statement-breakpoint
CREATE INDEX "payment_amounts_payment_idx" ON "payment_amounts" USING btree ("payment_id","kind");--> statement-breakpoint
UPDATE "payments" SET "amount_requested" = CASE
  WHEN "status" IN ('pending', 'processing', 'partial', 'expired') AND "amount_received" < "amount_due" THEN "amount_due" - "amount_received"
  ELSE 0 END;--> statement-breakpoint
INSERT INTO "payment_amounts" ("chain_id", "token_address", "receiving_address", "amount", "payment_id", "kind", "created_at")
  SELECT "chain_id", "token_address", "receiving_address", "amount_due", "id", 'due', "created_at" FROM "payments" WHERE "live";--> statement-breakpoint
DROP INDEX "payments_live_amount_key";