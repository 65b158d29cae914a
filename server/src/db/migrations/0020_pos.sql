ALTER TABLE "merchants" ADD COLUMN "tip_presets" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "created_by" text;