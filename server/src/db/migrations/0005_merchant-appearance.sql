ALTER TABLE "merchants" ADD COLUMN "brand_color" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "page_theme" text DEFAULT 'auto' NOT NULL;