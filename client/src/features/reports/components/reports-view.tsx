import { FIRST_DAY, LAST_DAY } from "@common/dates";
import {
  DAILY_BUCKETS_UP_TO_DAYS,
  daysInRange,
  MAX_REPORT_DAYS,
  type ReportBucket,
  type ReportSummary,
} from "@common/reports";
import { PAYMENT_STATUS_NAMES } from "@common/status-names";
import { Download, FileText, RefreshCw } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { formatTokenAmount, formatUsd } from "@/features/payments/format";
import { PaymentStatusBadge } from "@/features/payments/payment-status";
import { toast } from "@/hooks/use-toast";
import { errorText } from "@/lib/error-text";
import { cn } from "@/lib/utils";
import { reportCsvUrl, useReportSummary } from "../api/get-report-summary";

type StatusRow = ReportSummary["byStatus"][number];

import {
  browserTimeZone,
  type DateRange,
  foldQuietBuckets,
  formatDay,
  PRESETS,
  type PresetId,
  presetRange,
  quietLabel,
  timeZones,
} from "../range";
import { bucketLabel, type ChartMetric, formatMetric, metricValue, RevenueChart } from "./revenue-chart";

const selectClass =
  "h-11 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-[3px] focus-visible:ring-ring/60";

function rangeProblem(range: DateRange): string | null {
  if (!range.from || !range.to) return "Choose both dates.";
  const days = daysInRange(range.from, range.to);
  if (days < 1) return "The end date is before the start date.";
  if (days > MAX_REPORT_DAYS) return "A report covers at most one year (366 days).";
  return null;
}

/** Buttons that behave as one choice (aria-pressed), wrapping on a phone. */
function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { id: T; label: string }[];
  value: T;
  onChange: (id: T) => void;
}) {
  return (
    <fieldset className="flex min-w-0 flex-wrap gap-2">
      <legend className="sr-only">{label}</legend>
      {options.map((o) => (
        <Button
          key={o.id}
          type="button"
          size="sm"
          variant={o.id === value ? "default" : "outline"}
          aria-pressed={o.id === value}
          onClick={() => onChange(o.id)}
        >
          {o.label}
        </Button>
      ))}
    </fieldset>
  );
}

function Stat({
  label,
  value,
  detail,
  testId,
}: {
  label: string;
  value: string;
  detail?: React.ReactNode;
  testId: string;
}) {
  return (
    <div className="flex flex-col gap-1 rounded-xl border border-border bg-card p-4" data-testid={testId}>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="font-semibold text-2xl tabular-nums tracking-tight">{value}</dd>
      {detail ? <dd className="text-muted-foreground text-sm tabular-nums">{detail}</dd> : null}
    </div>
  );
}

function Totals({ report }: { report: ReportSummary }) {
  const symbol = report.token.symbol;
  const tokens = (v: string) => `${formatTokenAmount(v)} ${symbol}`;
  const r = report.revenue;
  return (
    <section aria-labelledby="report-totals">
      <h2 id="report-totals" className="sr-only">
        Totals
      </h2>
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-3">
        <Stat
          testId="stat-revenue"
          label="Revenue"
          value={formatUsd(r.usd)}
          detail={
            <>
              {tokens(r.amountReceived)}
              {r.unvalued > 0 ? (
                <span className="block">{r.unvalued} without a USD rate (not in USD)</span>
              ) : null}
            </>
          }
        />
        <Stat
          testId="stat-paid"
          label="Paid payments"
          value={String(r.count)}
          detail={`of ${report.payments} created`}
        />
        <Stat
          testId="stat-average"
          label="Average payment"
          value={r.averageUsd ? formatUsd(r.averageUsd) : "—"}
          detail={r.averageReceived ? tokens(r.averageReceived) : "No paid payments"}
        />
        <Stat
          testId="stat-late-partial"
          label={`${PAYMENT_STATUS_NAMES.paid_late} · ${PAYMENT_STATUS_NAMES.partial.toLowerCase()}`}
          value={`${formatUsd(report.paidLate.usd)} · ${formatUsd(report.partial.usd)}`}
          detail={`${report.paidLate.count} late (${tokens(report.paidLate.amountReceived)}) · ${report.partial.count} partly paid (${tokens(report.partial.amountReceived)})`}
        />
        <Stat
          testId="stat-refunded"
          label="Refunded"
          value={formatUsd(report.refunds.usd)}
          detail={`${tokens(report.refunds.amountRefunded)} · ${report.refunds.count} ${report.refunds.count === 1 ? "payment" : "payments"}`}
        />
        <Stat
          testId="stat-net-revenue"
          label="Net revenue"
          value={formatUsd(report.netRevenue.usd)}
          detail={`${tokens(report.netRevenue.amount)}: revenue minus its refunds`}
        />
      </dl>
    </section>
  );
}

function StatusTable({ report }: { report: ReportSummary }) {
  const symbol = report.token.symbol;
  const columns = [
    { key: "count", label: "Payments", value: (s: StatusRow) => String(s.count) },
    { key: "due", label: `Due (${symbol})`, value: (s: StatusRow) => formatTokenAmount(s.amountDue) },
    {
      key: "received",
      label: `Received (${symbol})`,
      value: (s: StatusRow) => formatTokenAmount(s.amountReceived),
    },
    { key: "usd", label: "USD value", value: (s: StatusRow) => formatUsd(s.usd) },
  ] as const;
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle id="report-status">Totals by status</CardTitle>
        <CardDescription>
          Payments created in the range, by what became of them. USD values are what was received, at each
          payment's rate.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {report.byStatus.length === 0 ? (
          <p className="text-muted-foreground text-sm">
            No payments were created in this range. Create one on the merchant dashboard, or pick a longer
            range.
          </p>
        ) : (
          <>
            {/* A phone: one labelled block per status, every column in it (nothing hidden, nothing to scroll). */}
            <ul
              aria-labelledby="report-status"
              className="flex flex-col gap-3 sm:hidden"
              data-testid="status-cards"
            >
              {report.byStatus.map((s) => (
                <li key={s.status} className="rounded-lg border border-border p-3" data-status-row={s.status}>
                  <PaymentStatusBadge status={s.status} />
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm tabular-nums">
                    {columns.map((c) => (
                      <React.Fragment key={c.key}>
                        <dt className="text-muted-foreground">{c.label}</dt>
                        <dd className="text-right">{c.value(s)}</dd>
                      </React.Fragment>
                    ))}
                  </dl>
                </li>
              ))}
            </ul>
            <table
              aria-labelledby="report-status"
              className="hidden w-full text-sm tabular-nums sm:table"
              data-testid="status-table"
            >
              <thead>
                <tr className="border-border border-b text-left text-muted-foreground">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Status
                  </th>
                  {columns.map((c) => (
                    <th key={c.key} scope="col" className="py-2 pr-3 text-right font-medium last:pr-0">
                      {c.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.byStatus.map((s) => (
                  <tr
                    key={s.status}
                    className="border-border border-b last:border-0"
                    data-status-row={s.status}
                  >
                    <th scope="row" className="py-2 pr-3 text-left font-normal">
                      <PaymentStatusBadge status={s.status} />
                    </th>
                    {columns.map((c) => (
                      <td key={c.key} className="py-2 pr-3 text-right last:pr-0">
                        {c.value(s)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function ChartCard({
  report,
  bucket,
  onBucket,
}: {
  report: ReportSummary;
  bucket: ReportBucket;
  onBucket: (b: ReportBucket) => void;
}) {
  const [metric, setMetric] = React.useState<ChartMetric>("usd");
  const symbol = report.token.symbol;
  return (
    <Card className="gap-3">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Revenue over time</CardTitle>
          <CardDescription>
            Paid payments by the {report.bucket === "week" ? "week (from Monday)" : "day"} they were created,
            in {report.tz}.
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-3">
          <Segmented
            label="Chart buckets"
            value={bucket}
            onChange={onBucket}
            options={[
              { id: "day", label: "Daily" },
              { id: "week", label: "Weekly" },
            ]}
          />
          <Segmented
            label="Chart currency"
            value={metric}
            onChange={setMetric}
            options={[
              { id: "usd", label: "USD" },
              { id: "cpxtb", label: symbol },
            ]}
          />
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <RevenueChart buckets={report.buckets} bucket={report.bucket} metric={metric} symbol={symbol} />
        <details className="text-sm">
          <summary className="cursor-pointer rounded-sm py-2 font-medium focus-visible:ring-[3px] focus-visible:ring-ring/60">
            Chart data as a table
          </summary>
          <div className="max-h-80 overflow-auto">
            <table className="w-full text-sm tabular-nums">
              <caption className="sr-only">Revenue per {report.bucket}</caption>
              <thead>
                <tr className="border-border border-b text-left text-muted-foreground">
                  <th scope="col" className="py-1.5 pr-3 font-medium">
                    {report.bucket === "week" ? "Week" : "Day"}
                  </th>
                  <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                    Paid
                  </th>
                  <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                    {symbol}
                  </th>
                  <th scope="col" className="py-1.5 text-right font-medium">
                    USD
                  </th>
                </tr>
              </thead>
              <tbody>
                {foldQuietBuckets(report.buckets).map((row) =>
                  row.kind === "quiet" ? (
                    <tr key={row.from} className="border-border border-b text-muted-foreground last:border-0">
                      <td colSpan={4} className="py-1.5">
                        {quietLabel(row, report.bucket)}
                      </td>
                    </tr>
                  ) : (
                    <tr key={row.bucket.start} className="border-border border-b last:border-0">
                      <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                        {bucketLabel(row.bucket.start, report.bucket)}
                      </th>
                      <td className="py-1.5 pr-3 text-right">{row.bucket.count}</td>
                      <td className="py-1.5 pr-3 text-right">
                        {formatTokenAmount(metricValue(row.bucket, "cpxtb"))}
                      </td>
                      <td className="py-1.5 text-right">{formatMetric(row.bucket.usd, "usd", symbol)}</td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        </details>
      </CardContent>
    </Card>
  );
}

/**
 * The report's time zone, searchable: a text field with the browser's list of zones as suggestions (type "berl",
 * "new york" or "tokyo"). A known zone is taken as soon as it is typed or picked; leaving the field with anything
 * else puts the current zone back. It starts at the browser's own zone.
 */
function ZonePicker({
  zone,
  zones,
  onChange,
}: {
  zone: string;
  zones: string[];
  onChange: (zone: string) => void;
}) {
  const [text, setText] = React.useState(zone);
  React.useEffect(() => setText(zone), [zone]);
  const byName = React.useMemo(() => {
    const map = new Map<string, string>();
    for (const z of zones) {
      map.set(z.toLowerCase(), z);
      map.set(z.replaceAll("_", " ").toLowerCase(), z);
    }
    return map;
  }, [zones]);
  const match = (value: string) => byName.get(value.trim().toLowerCase());
  const unknown = text.trim() !== "" && !match(text) && text !== zone;
  return (
    <>
      <input
        id="report-tz"
        type="text"
        list="report-tz-list"
        autoComplete="off"
        spellCheck={false}
        value={text}
        aria-describedby="report-tz-hint"
        aria-invalid={unknown || undefined}
        onChange={(e) => {
          setText(e.target.value);
          const found = match(e.target.value);
          if (found && found !== zone) onChange(found);
        }}
        onFocus={(e) => e.target.select()}
        onBlur={() => setText(match(text) ?? zone)}
        className={selectClass}
      />
      <datalist id="report-tz-list">
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <p id="report-tz-hint" className="text-muted-foreground text-xs">
        {unknown
          ? "Type a city or region, then pick a zone from the list."
          : `Your browser's zone is ${browserTimeZone()}.`}
      </p>
    </>
  );
}

/** /reports: a range in the merchant's time zone, its totals, a chart, a table by status, CSV and PDF exports. */
export function ReportsView({ businessName }: { businessName: string | null }) {
  const [tz, setTz] = React.useState(browserTimeZone);
  const [preset, setPreset] = React.useState<PresetId>("30d");
  const [range, setRange] = React.useState<DateRange>(() =>
    presetRange("30d", browserTimeZone(), { from: "", to: "" }),
  );
  const [chosenBucket, setChosenBucket] = React.useState<ReportBucket | null>(null);
  const [makingPdf, setMakingPdf] = React.useState(false);
  const zones = React.useMemo(() => {
    const all = timeZones();
    return all.includes(tz) ? all : [tz, ...all];
  }, [tz]);

  const problem = rangeProblem(range);
  const autoBucket: ReportBucket =
    !problem && daysInRange(range.from, range.to) > DAILY_BUCKETS_UP_TO_DAYS ? "week" : "day";
  const bucket = chosenBucket ?? autoBucket;
  const params = { ...range, tz, bucket };
  const report = useReportSummary(params, problem === null);
  const data = report.data;

  const choosePreset = (id: PresetId) => {
    setPreset(id);
    setChosenBucket(null);
    setRange((current) => presetRange(id, tz, current));
  };
  const chooseZone = (zone: string) => {
    setTz(zone);
    setRange((current) => presetRange(preset, zone, current));
  };
  const editDate = (key: keyof DateRange, value: string) => {
    setPreset("custom");
    setChosenBucket(null);
    setRange((current) => ({ ...current, [key]: value }));
  };

  const pdf = async () => {
    if (!data) return;
    setMakingPdf(true);
    try {
      // pdf-lib and the report layout load only now, in their own chunk.
      const { downloadReportPdf } = await import("../report-pdf");
      await downloadReportPdf(data, businessName);
    } catch (error) {
      toast({
        variant: "destructive",
        title: "The PDF was not made",
        description: errorText(error),
      });
    } finally {
      setMakingPdf(false);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <Card className="gap-4">
        <CardContent className="flex flex-col gap-4">
          <Segmented label="Date range" options={PRESETS} value={preset} onChange={choosePreset} />
          <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr]">
            <div className="flex flex-col gap-2">
              <Label htmlFor="report-from">From</Label>
              <input
                id="report-from"
                type="date"
                value={range.from}
                min={FIRST_DAY}
                max={range.to || LAST_DAY}
                onChange={(e) => editDate("from", e.target.value)}
                className={selectClass}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="report-to">To</Label>
              <input
                id="report-to"
                type="date"
                value={range.to}
                min={range.from || FIRST_DAY}
                max={LAST_DAY}
                onChange={(e) => editDate("to", e.target.value)}
                className={selectClass}
              />
            </div>
            <div className="flex flex-col gap-2 min-[420px]:col-span-2 lg:col-span-1">
              <Label htmlFor="report-tz">Time zone</Label>
              <ZonePicker zone={tz} zones={zones} onChange={chooseZone} />
            </div>
          </div>
          {problem ? (
            <p role="alert" className="font-medium text-destructive text-sm">
              {problem}
            </p>
          ) : (
            <p className="text-muted-foreground text-sm" aria-live="polite">
              {formatDay(range.from)} – {formatDay(range.to)} ({daysInRange(range.from, range.to)} days, {tz})
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <a
              href={problem ? undefined : reportCsvUrl(params)}
              download
              aria-disabled={problem ? true : undefined}
              className={cn(
                buttonVariants({ variant: "outline" }),
                problem && "pointer-events-none opacity-50",
              )}
            >
              <Download aria-hidden="true" /> Download CSV
            </a>
            <Button type="button" variant="outline" onClick={pdf} disabled={!data || makingPdf}>
              <FileText aria-hidden="true" /> {makingPdf ? "Making the PDF…" : "Download PDF"}
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => report.refetch()}
              disabled={problem !== null || report.isFetching}
            >
              <RefreshCw aria-hidden="true" className={cn(report.isFetching && "motion-safe:animate-spin")} />
              Refresh
            </Button>
          </div>
        </CardContent>
      </Card>

      {report.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-border p-4">
          <p className="font-semibold">The report could not be loaded.</p>
          <p className="text-muted-foreground text-sm">{errorText(report.error)}</p>
          <Button variant="outline" onClick={() => report.refetch()}>
            <RefreshCw aria-hidden="true" /> Try again
          </Button>
        </div>
      ) : !data ? (
        problem ? null : (
          <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none">
            <span role="status" className="sr-only">
              Loading the report
            </span>
          </div>
        )
      ) : (
        <div
          className={cn("flex flex-col gap-6 transition-opacity", report.isPlaceholderData && "opacity-60")}
          aria-busy={report.isFetching}
          data-testid="report"
          data-range={`${data.from}/${data.to}`}
        >
          <Totals report={data} />
          <ChartCard report={data} bucket={bucket} onBucket={setChosenBucket} />
          <StatusTable report={data} />
        </div>
      )}
    </div>
  );
}
