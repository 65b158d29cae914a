ALTER TABLE "buy_orders" ADD COLUMN "deliver_to" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "display_name" text;--> statement-breakpoint
UPDATE "users" SET "display_name" = (
	SELECT "name" FROM "social_accounts"
	WHERE "social_accounts"."user_id" = "users"."id" AND "social_accounts"."name" IS NOT NULL AND "social_accounts"."name" <> ''
	ORDER BY "social_accounts"."last_sign_in_at" DESC LIMIT 1
);