CREATE TABLE "payment_sums" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"link_id" text,
	"status" text NOT NULL,
	"unit" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"received" numeric(78, 0) NOT NULL,
	"usd_cents" numeric(78, 0) NOT NULL,
	"unvalued" integer NOT NULL,
	"due" numeric(78, 0) NOT NULL,
	"received_count" integer NOT NULL,
	"refunded_count" integer NOT NULL,
	"refunded" numeric(78, 0) NOT NULL,
	"refunded_usd_cents" numeric(78, 0) NOT NULL,
	"compacted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payment_sums_merchant_slot_idx" ON "payment_sums" USING btree ("merchant_id","unit","slot");--> statement-breakpoint
CREATE INDEX "payment_sums_pending_idx" ON "payment_sums" USING btree ("id") WHERE not "payment_sums"."compacted";--> statement-breakpoint
-- The reports' sums (issue 39, decision 039): every statement that inserts, changes or deletes payments adds, in
-- its own transaction, one delta row per (merchant, link, status, quarter hour of creation) it changed and one per
-- (merchant, link, status, UTC day): the new rows' values added, the old rows' taken away. A change that leaves a
-- key's sums as they were (the indexer's amount_seen, updated_at, ...) adds nothing. Statement triggers with transition tables: a bulk expiry of
-- thousands of payments is a few rows, not thousands. The per-payment values are those of the row-based sums
-- (reports/repository.ts): amounts normalised to 18 decimals, USD in cents rounded per payment.
-- The same statement three times, for the transition tables each event has: written out (not one EXECUTEd text)
-- so PL/pgSQL keeps each one's plan (planning it per statement cost ~2 ms of every change of a payment).
CREATE FUNCTION "payment_sums_delta"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    insert into payment_sums (merchant_id, link_id, status, unit, slot, count, received, usd_cents, unvalued, due,
      received_count, refunded_count, refunded, refunded_usd_cents)
    select merchant_id, link_id, status, unit, slot, sum(sign)::int, sum(sign * received), sum(sign * usd_cents),
      sum(sign * unvalued)::int, sum(sign * due), sum(sign * received_count)::int,
      sum(sign * refunded_count)::int, sum(sign * refunded), sum(sign * refunded_usd_cents)
    from (
      select c.sign, c.merchant_id, c.link_id, c.status, u.unit,
        date_bin(u.width, c.created_at, timestamptz '2000-01-01 00:00:00+00') as slot,
        v.received, coalesce(round(v.received * v.rate / 1e34), 0) as usd_cents,
        (v.rate is null and c.amount_received > 0)::int as unvalued, v.due,
        (c.amount_received > 0)::int as received_count, (c.amount_refunded > 0)::int as refunded_count,
        v.refunded, coalesce(round(v.refunded * v.rate / 1e34), 0) as refunded_usd_cents
      from (select 1 as sign, merchant_id, link_id, status, created_at, token_decimals, amount_received, amount_due, amount_refunded, price_e18, completed_price_e18 from payment_sums_new) c
      cross join lateral (
        select coalesce(c.price_e18, c.completed_price_e18) as rate,
          c.amount_received * m.scale as received, c.amount_due * m.scale as due,
          c.amount_refunded * m.scale as refunded
        from (select case when c.token_decimals = 18 then 1::numeric
                     else 10::numeric ^ (18 - c.token_decimals) end as scale) m
      ) v
      cross join (values ('quarter', interval '15 minutes'), ('day', interval '1 day')) u(unit, width)
    ) d
    group by merchant_id, link_id, status, unit, slot
    having sum(sign) <> 0 or sum(sign * received) <> 0 or sum(sign * usd_cents) <> 0
      or sum(sign * unvalued) <> 0 or sum(sign * due) <> 0 or sum(sign * received_count) <> 0
      or sum(sign * refunded_count) <> 0 or sum(sign * refunded) <> 0 or sum(sign * refunded_usd_cents) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    insert into payment_sums (merchant_id, link_id, status, unit, slot, count, received, usd_cents, unvalued, due,
      received_count, refunded_count, refunded, refunded_usd_cents)
    select merchant_id, link_id, status, unit, slot, sum(sign)::int, sum(sign * received), sum(sign * usd_cents),
      sum(sign * unvalued)::int, sum(sign * due), sum(sign * received_count)::int,
      sum(sign * refunded_count)::int, sum(sign * refunded), sum(sign * refunded_usd_cents)
    from (
      select c.sign, c.merchant_id, c.link_id, c.status, u.unit,
        date_bin(u.width, c.created_at, timestamptz '2000-01-01 00:00:00+00') as slot,
        v.received, coalesce(round(v.received * v.rate / 1e34), 0) as usd_cents,
        (v.rate is null and c.amount_received > 0)::int as unvalued, v.due,
        (c.amount_received > 0)::int as received_count, (c.amount_refunded > 0)::int as refunded_count,
        v.refunded, coalesce(round(v.refunded * v.rate / 1e34), 0) as refunded_usd_cents
      from (select -1 as sign, merchant_id, link_id, status, created_at, token_decimals, amount_received, amount_due, amount_refunded, price_e18, completed_price_e18 from payment_sums_old) c
      cross join lateral (
        select coalesce(c.price_e18, c.completed_price_e18) as rate,
          c.amount_received * m.scale as received, c.amount_due * m.scale as due,
          c.amount_refunded * m.scale as refunded
        from (select case when c.token_decimals = 18 then 1::numeric
                     else 10::numeric ^ (18 - c.token_decimals) end as scale) m
      ) v
      cross join (values ('quarter', interval '15 minutes'), ('day', interval '1 day')) u(unit, width)
    ) d
    group by merchant_id, link_id, status, unit, slot
    having sum(sign) <> 0 or sum(sign * received) <> 0 or sum(sign * usd_cents) <> 0
      or sum(sign * unvalued) <> 0 or sum(sign * due) <> 0 or sum(sign * received_count) <> 0
      or sum(sign * refunded_count) <> 0 or sum(sign * refunded) <> 0 or sum(sign * refunded_usd_cents) <> 0;
  ELSE
    insert into payment_sums (merchant_id, link_id, status, unit, slot, count, received, usd_cents, unvalued, due,
      received_count, refunded_count, refunded, refunded_usd_cents)
    select merchant_id, link_id, status, unit, slot, sum(sign)::int, sum(sign * received), sum(sign * usd_cents),
      sum(sign * unvalued)::int, sum(sign * due), sum(sign * received_count)::int,
      sum(sign * refunded_count)::int, sum(sign * refunded), sum(sign * refunded_usd_cents)
    from (
      select c.sign, c.merchant_id, c.link_id, c.status, u.unit,
        date_bin(u.width, c.created_at, timestamptz '2000-01-01 00:00:00+00') as slot,
        v.received, coalesce(round(v.received * v.rate / 1e34), 0) as usd_cents,
        (v.rate is null and c.amount_received > 0)::int as unvalued, v.due,
        (c.amount_received > 0)::int as received_count, (c.amount_refunded > 0)::int as refunded_count,
        v.refunded, coalesce(round(v.refunded * v.rate / 1e34), 0) as refunded_usd_cents
      from (select 1 as sign, merchant_id, link_id, status, created_at, token_decimals, amount_received, amount_due, amount_refunded, price_e18, completed_price_e18 from payment_sums_new union all select -1 as sign, merchant_id, link_id, status, created_at, token_decimals, amount_received, amount_due, amount_refunded, price_e18, completed_price_e18 from payment_sums_old) c
      cross join lateral (
        select coalesce(c.price_e18, c.completed_price_e18) as rate,
          c.amount_received * m.scale as received, c.amount_due * m.scale as due,
          c.amount_refunded * m.scale as refunded
        from (select case when c.token_decimals = 18 then 1::numeric
                     else 10::numeric ^ (18 - c.token_decimals) end as scale) m
      ) v
      cross join (values ('quarter', interval '15 minutes'), ('day', interval '1 day')) u(unit, width)
    ) d
    group by merchant_id, link_id, status, unit, slot
    having sum(sign) <> 0 or sum(sign * received) <> 0 or sum(sign * usd_cents) <> 0
      or sum(sign * unvalued) <> 0 or sum(sign * due) <> 0 or sum(sign * received_count) <> 0
      or sum(sign * refunded_count) <> 0 or sum(sign * refunded) <> 0 or sum(sign * refunded_usd_cents) <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payment_sums_on_insert" AFTER INSERT ON "payments" REFERENCING NEW TABLE AS "payment_sums_new"
  FOR EACH STATEMENT EXECUTE FUNCTION "payment_sums_delta"();
--> statement-breakpoint
CREATE TRIGGER "payment_sums_on_update" AFTER UPDATE ON "payments"
  REFERENCING OLD TABLE AS "payment_sums_old" NEW TABLE AS "payment_sums_new"
  FOR EACH STATEMENT EXECUTE FUNCTION "payment_sums_delta"();
--> statement-breakpoint
CREATE TRIGGER "payment_sums_on_delete" AFTER DELETE ON "payments" REFERENCING OLD TABLE AS "payment_sums_old"
  FOR EACH STATEMENT EXECUTE FUNCTION "payment_sums_delta"();
--> statement-breakpoint
-- The payments already there, added up once (as compacted rows).
INSERT INTO "payment_sums" (merchant_id, link_id, status, unit, slot, count, received, usd_cents, unvalued, due,
  received_count, refunded_count, refunded, refunded_usd_cents, compacted)
SELECT merchant_id, link_id, status, unit, slot, count(*)::int, sum(received), sum(usd_cents), sum(unvalued)::int,
  sum(due), sum(received_count)::int, sum(refunded_count)::int, sum(refunded), sum(refunded_usd_cents), true
FROM (
  SELECT p.merchant_id, p.link_id, p.status, u.unit,
    date_bin(u.width, p.created_at, timestamptz '2000-01-01 00:00:00+00') AS slot,
    v.received, coalesce(round(v.received * v.rate / 1e34), 0) AS usd_cents,
    (v.rate IS NULL AND p.amount_received > 0)::int AS unvalued, v.due,
    (p.amount_received > 0)::int AS received_count, (p.amount_refunded > 0)::int AS refunded_count,
    v.refunded, coalesce(round(v.refunded * v.rate / 1e34), 0) AS refunded_usd_cents
  FROM payments p
  CROSS JOIN LATERAL (
    SELECT coalesce(p.price_e18, p.completed_price_e18) AS rate,
      p.amount_received * m.scale AS received, p.amount_due * m.scale AS due, p.amount_refunded * m.scale AS refunded
    FROM (SELECT CASE WHEN p.token_decimals = 18 THEN 1::numeric
                 ELSE 10::numeric ^ (18 - p.token_decimals) END AS scale) m
  ) v
  CROSS JOIN (VALUES ('quarter', interval '15 minutes'), ('day', interval '1 day')) u(unit, width)
) d
GROUP BY merchant_id, link_id, status, unit, slot;
