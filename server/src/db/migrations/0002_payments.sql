CREATE TABLE "chain_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" timestamp with time zone,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"merchant_id" text,
	"payment_id" text,
	"credited_by" text,
	"orphaned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexer_blocks" (
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "indexer_blocks_chain_id_token_address_block_number_pk" PRIMARY KEY("chain_id","token_address","block_number")
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"business_type" text NOT NULL,
	"contact_email" text NOT NULL,
	"website" text,
	"description" text,
	"logo_url" text,
	"wallet_address" text NOT NULL,
	"wallet_verified_at" timestamp with time zone NOT NULL,
	"tolerance_bps" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"payment_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "payment_events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "payment_timeline" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"cause" text NOT NULL,
	"transfer_id" text,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"merchant_id" text NOT NULL,
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"token_decimals" integer NOT NULL,
	"receiving_address" text NOT NULL,
	"amount_usd_cents" bigint,
	"price_e18" numeric(78, 0),
	"price_source" text,
	"price_at" timestamp with time zone,
	"base_amount" numeric(78, 0) NOT NULL,
	"tag" integer NOT NULL,
	"amount_due" numeric(78, 0) NOT NULL,
	"tolerance_bps" integer NOT NULL,
	"amount_received" numeric(78, 0) DEFAULT 0 NOT NULL,
	"amount_seen" numeric(78, 0) DEFAULT 0 NOT NULL,
	"overpaid" boolean DEFAULT false NOT NULL,
	"description" text,
	"order_id" text,
	"success_url" text,
	"payer_email" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"monitor_until" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"regenerated_from_id" text,
	"regenerated_to_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "wallet_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"address" text NOT NULL,
	"nonce" text NOT NULL,
	"message" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "wallet_challenges_nonce_unique" UNIQUE("nonce")
);
--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_timeline" ADD CONSTRAINT "payment_timeline_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_challenges" ADD CONSTRAINT "wallet_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transfers_log_key" ON "chain_transfers" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "chain_transfers_payment_idx" ON "chain_transfers" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "chain_transfers_merchant_idx" ON "chain_transfers" USING btree ("merchant_id","payment_id");--> statement-breakpoint
CREATE INDEX "chain_transfers_block_idx" ON "chain_transfers" USING btree ("chain_id","token_address","block_number");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_owner_id_key" ON "merchants" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_wallet_address_lower_key" ON "merchants" USING btree (lower("wallet_address"));--> statement-breakpoint
CREATE INDEX "payment_events_unpublished_idx" ON "payment_events" USING btree ("seq") WHERE "payment_events"."published_at" is null;--> statement-breakpoint
CREATE INDEX "payment_timeline_payment_idx" ON "payment_timeline" USING btree ("payment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_live_amount_key" ON "payments" USING btree ("chain_id","token_address","receiving_address","amount_due") WHERE "payments"."live";--> statement-breakpoint
CREATE INDEX "payments_merchant_created_idx" ON "payments" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "payments_status_expires_idx" ON "payments" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "payments_match_idx" ON "payments" USING btree ("chain_id","token_address","receiving_address","amount_due");--> statement-breakpoint
CREATE INDEX "wallet_challenges_user_id_idx" ON "wallet_challenges" USING btree ("user_id");