CREATE TABLE "payment_events_unpublished" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Events the live publisher skipped while the dispatcher held them (issue 33) are published once more.
INSERT INTO "payment_events_unpublished" ("seq") SELECT "seq" FROM "payment_events" WHERE "published_at" IS NULL;--> statement-breakpoint
DROP INDEX "payment_events_unpublished_idx";--> statement-breakpoint
ALTER TABLE "payment_events_unpublished" ADD CONSTRAINT "payment_events_unpublished_seq_payment_events_seq_fk" FOREIGN KEY ("seq") REFERENCES "public"."payment_events"("seq") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" DROP COLUMN "published_at";--> statement-breakpoint
-- Every event is queued for the live publisher in the transaction that adds it, whichever code adds it.
CREATE FUNCTION "payment_events_queue_for_live"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "payment_events_unpublished" ("seq") SELECT "seq" FROM "added";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "payment_events_queue_for_live" AFTER INSERT ON "payment_events" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "payment_events_queue_for_live"();
