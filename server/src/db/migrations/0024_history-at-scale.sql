-- A million payments (issue 39, decision 037). The indexer's watched addresses, every block: the distinct receiving
-- addresses of matchable payments (MATCHABLE_STATUSES, written out as the query writes them), skipped through in
-- index order (one probe per address) instead of every matchable payment read and grouped.
CREATE INDEX "payments_matchable_address_idx" ON "payments" USING btree ("receiving_address") WHERE "payments"."status" in ('pending', 'processing', 'partial', 'expired');--> statement-breakpoint
-- The expiry job's payments whose monitoring window is over: the live expired or cancelled ones (a few), not every
-- expired one.
CREATE INDEX "payments_live_closed_monitor_idx" ON "payments" USING btree ("monitor_until") WHERE "payments"."live" and "payments"."status" in ('expired', 'cancelled');
