CREATE TABLE "business_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "business_members" (
	"merchant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_members_merchant_id_user_id_pk" PRIMARY KEY("merchant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "active_merchant_id" text;--> statement-breakpoint
ALTER TABLE "business_invitations" ADD CONSTRAINT "business_invitations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_invitations" ADD CONSTRAINT "business_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_invitations" ADD CONSTRAINT "business_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_members" ADD CONSTRAINT "business_members_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_members" ADD CONSTRAINT "business_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_invitations_merchant_idx" ON "business_invitations" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "business_members_user_idx" ON "business_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "business_members_one_owner_key" ON "business_members" USING btree ("merchant_id") WHERE role = 'owner';--> statement-breakpoint
CREATE UNIQUE INDEX "business_members_owns_one_key" ON "business_members" USING btree ("user_id") WHERE role = 'owner';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_active_merchant_id_merchants_id_fk" FOREIGN KEY ("active_merchant_id") REFERENCES "public"."merchants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Hand-written (decision 021): every business gets its owner as a member, now and whenever one is created (the
-- trigger covers every path that inserts a merchant). drizzle-kit does not model triggers: keep this block.
INSERT INTO "business_members" ("merchant_id", "user_id", "role", "created_at")
SELECT "id", "owner_id", 'owner', "created_at" FROM "merchants"
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "merchants_owner_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "business_members" ("merchant_id", "user_id", "role") VALUES (NEW."id", NEW."owner_id", 'owner')
  ON CONFLICT DO NOTHING;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "merchants_owner_member" AFTER INSERT ON "merchants" FOR EACH ROW EXECUTE FUNCTION "merchants_owner_member"();
