CREATE TABLE "buy_wallet_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"address" text NOT NULL,
	"nonce" text NOT NULL,
	"message" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buy_wallet_challenges_nonce_unique" UNIQUE("nonce")
);
--> statement-breakpoint
CREATE TABLE "treasury_receipts" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"treasury_address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"value_wei" numeric(78, 0) NOT NULL,
	"block" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"related_order_id" text,
	"refund_due" boolean DEFAULT true NOT NULL,
	"refund_tx_hash" text,
	"refunded_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treasury_receipts_tx_hash_unique" UNIQUE("tx_hash")
);
--> statement-breakpoint
ALTER TABLE "buy_orders" ADD COLUMN "owner_token_hash" text;--> statement-breakpoint
CREATE INDEX "treasury_receipts_refund_idx" ON "treasury_receipts" USING btree ("refund_due");