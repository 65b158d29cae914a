CREATE TABLE "buy_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"method" text NOT NULL,
	"chain_id" integer NOT NULL,
	"buyer_address" text NOT NULL,
	"treasury_address" text NOT NULL,
	"token_decimals" integer NOT NULL,
	"usd_cents" bigint NOT NULL,
	"token_amount" numeric(78, 0) NOT NULL,
	"price_e18" numeric(78, 0) NOT NULL,
	"eth_usd_e18" numeric(78, 0),
	"eth_amount_wei" numeric(78, 0),
	"status" text DEFAULT 'quoted' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"pay_tx_hash" text,
	"pay_from" text,
	"pay_value_wei" numeric(78, 0),
	"pay_block" bigint,
	"paid_at" timestamp with time zone,
	"paypal_order_id" text,
	"paypal_capture_id" text,
	"problem" text,
	"refund_due" boolean DEFAULT false NOT NULL,
	"return_to" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buy_orders_pay_tx_hash_unique" UNIQUE("pay_tx_hash"),
	CONSTRAINT "buy_orders_paypal_order_id_unique" UNIQUE("paypal_order_id"),
	CONSTRAINT "buy_orders_paypal_capture_id_unique" UNIQUE("paypal_capture_id")
);
--> statement-breakpoint
CREATE TABLE "token_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"wallet_address" text NOT NULL,
	"device_id" text NOT NULL,
	"ip" text NOT NULL,
	"chain_id" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_attempts" (
	"tx_hash" text PRIMARY KEY NOT NULL,
	"send_id" text NOT NULL,
	"nonce" bigint NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"raw_tx" text NOT NULL,
	"dropped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_nonces" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	CONSTRAINT "treasury_nonces_chain_id_address_pk" PRIMARY KEY("chain_id","address")
);
--> statement-breakpoint
CREATE TABLE "treasury_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref_id" text NOT NULL,
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"nonce" bigint,
	"tx_hash" text,
	"block_number" bigint,
	"last_error" text,
	"signed_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buy_orders" ADD CONSTRAINT "buy_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_claims" ADD CONSTRAINT "token_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_attempts" ADD CONSTRAINT "treasury_attempts_send_id_treasury_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."treasury_sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buy_orders_open_idx" ON "buy_orders" USING btree ("chain_id","status","buyer_address");--> statement-breakpoint
CREATE INDEX "buy_orders_refund_idx" ON "buy_orders" USING btree ("refund_due");--> statement-breakpoint
CREATE INDEX "token_claims_user_idx" ON "token_claims" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "token_claims_wallet_idx" ON "token_claims" USING btree ("wallet_address","created_at");--> statement-breakpoint
CREATE INDEX "token_claims_device_idx" ON "token_claims" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "token_claims_ip_idx" ON "token_claims" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "treasury_attempts_send_idx" ON "treasury_attempts" USING btree ("send_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "treasury_sends_ref_key" ON "treasury_sends" USING btree ("kind","ref_id");--> statement-breakpoint
CREATE UNIQUE INDEX "treasury_sends_nonce_key" ON "treasury_sends" USING btree ("chain_id","from_address","nonce");--> statement-breakpoint
CREATE INDEX "treasury_sends_status_idx" ON "treasury_sends" USING btree ("status","created_at");