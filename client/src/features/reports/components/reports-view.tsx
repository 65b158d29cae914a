import { FIRST_DAY, LAST_DAY } from "@common/dates";
import { intlTag } from "@common/locale-format";
import type { Locale } from "@common/locales";
import {
  DAILY_BUCKETS_UP_TO_DAYS,
  daysInRange,
  MAX_REPORT_DAYS,
  type ReportBucket,
  type ReportSummary,
} from "@common/reports";
import { Download, FileText, RefreshCw } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { loadErrorText } from "@/features/payments/dashboard/load-error-text";
import { formatTokenAmount, formatUsd } from "@/features/payments/format";
import { PaymentStatusBadge, STATUS_LABEL_ID } from "@/features/payments/payment-status";
import { toast } from "@/hooks/use-toast";
import { type t as translate, useLocale, useT } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { cn } from "@/lib/utils";
import { reportCsvUrl, useReportSummary } from "../api/get-report-summary";
import {
  browserTimeZone,
  type DateRange,
  foldQuietBuckets,
  formatDay,
  formatDaySpan,
  PRESETS,
  type PresetId,
  presetRange,
  timeZones,
} from "../range";
import { bucketLabel, type ChartMetric, formatMetric, metricValue, RevenueChart } from "./revenue-chart";

type StatusRow = ReportSummary["byStatus"][number];
type T = typeof translate;

/** The presets' names in the reader's language (the number of days is a placeholder, not in the words). */
function presetLabel(id: PresetId, t: T): string {
  switch (id) {
    case "today":
      return t("reports.preset.today");
    case "7d":
      return t("reports.preset.lastDays", { count: 7 });
    case "30d":
      return t("reports.preset.lastDays", { count: 30 });
    case "month":
      return t("reports.preset.thisMonth");
    case "last-month":
      return t("reports.preset.lastMonth");
    case "custom":
      return t("reports.preset.custom");
  }
}

const selectClass =
  "h-11 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-[3px] focus-visible:ring-ring/60";

function rangeProblem(range: DateRange, t: T): string | null {
  if (!range.from || !range.to) return t("reports.range.bothDates");
  const days = daysInRange(range.from, range.to);
  if (days < 1) return t("reports.range.endBeforeStart");
  if (days > MAX_REPORT_DAYS) return t("reports.range.tooLong", { days: MAX_REPORT_DAYS });
  return null;
}

/** "No payments 1–14 Nov", "No payments in the weeks of 2–16 Nov": a folded run of the table, translated. */
function quietLabel(row: { from: string; to: string }, bucket: ReportBucket, locale: Locale, t: T): string {
  const span = formatDaySpan(row.from, row.to, intlTag(locale));
  return bucket === "week"
    ? t(row.from === row.to ? "reports.chart.quietWeek" : "reports.chart.quietWeeks", { span })
    : t("reports.chart.quietDays", { span });
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
      <dd className="font-semibold text-2xl tabular-nums tracking-tight">
        <bdi dir="ltr">{value}</bdi>
      </dd>
      {detail ? <dd className="text-muted-foreground text-sm tabular-nums">{detail}</dd> : null}
    </div>
  );
}

function Totals({ report }: { report: ReportSummary }) {
  const locale = useLocale();
  const t = useT();
  const symbol = report.token.symbol;
  const tokens = (v: string) => isolate(`${formatTokenAmount(v, locale)} ${symbol}`, locale);
  const usd = (v: string) => formatUsd(v, locale);
  const r = report.revenue;
  return (
    <section aria-labelledby="report-totals">
      <h2 id="report-totals" className="sr-only">
        {t("reports.totals.heading")}
      </h2>
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-3">
        <Stat
          testId="stat-revenue"
          label={t("reports.totals.revenue")}
          value={usd(r.usd)}
          detail={
            <>
              {tokens(r.amountReceived)}
              {r.unvalued > 0 ? (
                <span className="block">{t("reports.totals.unvalued", { count: r.unvalued })}</span>
              ) : null}
            </>
          }
        />
        <Stat
          testId="stat-paid"
          label={t("reports.totals.paid")}
          value={String(r.count)}
          detail={t("reports.totals.ofCreated", { count: report.payments })}
        />
        <Stat
          testId="stat-average"
          label={t("reports.totals.average")}
          value={r.averageUsd ? usd(r.averageUsd) : "—"}
          detail={r.averageReceived ? tokens(r.averageReceived) : t("reports.totals.noPaid")}
        />
        <Stat
          testId="stat-late-partial"
          label={`${t(STATUS_LABEL_ID.paid_late)} · ${t(STATUS_LABEL_ID.partial)}`}
          value={`${usd(report.paidLate.usd)} · ${usd(report.partial.usd)}`}
          detail={t("reports.totals.latePartialDetail", {
            late: report.paidLate.count,
            lateAmount: tokens(report.paidLate.amountReceived),
            partial: report.partial.count,
            partialAmount: tokens(report.partial.amountReceived),
          })}
        />
        <Stat
          testId="stat-refunded"
          label={t("reports.totals.refunded")}
          value={usd(report.refunds.usd)}
          detail={t("reports.totals.refundedDetail", {
            amount: tokens(report.refunds.amountRefunded),
            count: report.refunds.count,
          })}
        />
        <Stat
          testId="stat-net-revenue"
          label={t("reports.totals.net")}
          value={usd(report.netRevenue.usd)}
          detail={t("reports.totals.netDetail", { amount: tokens(report.netRevenue.amount) })}
        />
      </dl>
    </section>
  );
}

function StatusTable({ report }: { report: ReportSummary }) {
  const locale = useLocale();
  const t = useT();
  const symbol = report.token.symbol;
  const columns = [
    { key: "count", label: t("reports.status.payments"), value: (s: StatusRow) => String(s.count) },
    {
      key: "due",
      label: t("reports.status.due", { symbol }),
      value: (s: StatusRow) => formatTokenAmount(s.amountDue, locale),
    },
    {
      key: "received",
      label: t("reports.status.received", { symbol }),
      value: (s: StatusRow) => formatTokenAmount(s.amountReceived, locale),
    },
    { key: "usd", label: t("reports.status.usd"), value: (s: StatusRow) => formatUsd(s.usd, locale) },
  ] as const;
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle id="report-status">{t("reports.status.title")}</CardTitle>
        <CardDescription>{t("reports.status.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        {report.byStatus.length === 0 ? (
          <p className="text-muted-foreground text-sm">{t("reports.status.empty")}</p>
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
                  <PaymentStatusBadge status={s.status} label={t(STATUS_LABEL_ID[s.status])} />
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm tabular-nums">
                    {columns.map((c) => (
                      <React.Fragment key={c.key}>
                        <dt className="text-muted-foreground">{c.label}</dt>
                        <dd className="text-end">
                          <bdi dir="ltr">{c.value(s)}</bdi>
                        </dd>
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
                <tr className="border-border border-b text-start text-muted-foreground">
                  <th scope="col" className="py-2 pe-3 text-start font-medium">
                    {t("reports.status.status")}
                  </th>
                  {columns.map((c) => (
                    <th key={c.key} scope="col" className="py-2 pe-3 text-end font-medium last:pe-0">
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
                    <th scope="row" className="py-2 pe-3 text-start font-normal">
                      <PaymentStatusBadge status={s.status} label={t(STATUS_LABEL_ID[s.status])} />
                    </th>
                    {columns.map((c) => (
                      <td key={c.key} className="py-2 pe-3 text-end last:pe-0">
                        <bdi dir="ltr">{c.value(s)}</bdi>
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
  const locale = useLocale();
  const t = useT();
  const symbol = report.token.symbol;
  const week = report.bucket === "week";
  return (
    <Card className="gap-3">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <CardTitle>{t("reports.chart.title")}</CardTitle>
          <CardDescription>
            {t(week ? "reports.chart.descriptionWeeks" : "reports.chart.descriptionDays", {
              zone: isolate(report.tz, locale),
            })}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-3">
          <Segmented
            label={t("reports.chart.buckets")}
            value={bucket}
            onChange={onBucket}
            options={[
              { id: "day", label: t("reports.chart.daily") },
              { id: "week", label: t("reports.chart.weekly") },
            ]}
          />
          <Segmented
            label={t("reports.chart.currency")}
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
            {t("reports.chart.table")}
          </summary>
          {/* Scrolls when long (a year by day) or narrow: reachable by keyboard as a named region (axe). */}
          <section
            aria-label={t("reports.chart.table")}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled by keyboard
            tabIndex={0}
            className="max-h-80 overflow-auto rounded-sm focus-visible:ring-[3px] focus-visible:ring-ring/60"
          >
            <table className="w-full text-xs tabular-nums sm:text-sm">
              <caption className="sr-only">
                {t(week ? "reports.chart.captionWeeks" : "reports.chart.captionDays")}
              </caption>
              <thead>
                <tr className="border-border border-b text-start text-muted-foreground">
                  <th scope="col" className="py-1.5 pe-3 text-start font-medium">
                    {t(week ? "reports.chart.week" : "reports.chart.day")}
                  </th>
                  <th scope="col" className="py-1.5 pe-3 text-end font-medium">
                    {t("reports.chart.paid")}
                  </th>
                  <th scope="col" className="py-1.5 pe-3 text-end font-medium">
                    {symbol}
                  </th>
                  <th scope="col" className="py-1.5 text-end font-medium">
                    USD
                  </th>
                </tr>
              </thead>
              <tbody>
                {foldQuietBuckets(report.buckets).map((row) =>
                  row.kind === "quiet" ? (
                    <tr key={row.from} className="border-border border-b text-muted-foreground last:border-0">
                      <td colSpan={4} className="py-1.5">
                        {quietLabel(row, report.bucket, locale, t)}
                      </td>
                    </tr>
                  ) : (
                    <tr key={row.bucket.start} className="border-border border-b last:border-0">
                      <th scope="row" className="py-1.5 pe-3 text-start font-normal">
                        {bucketLabel(row.bucket.start, report.bucket, locale, t)}
                      </th>
                      <td className="py-1.5 pe-3 text-end">{row.bucket.count}</td>
                      <td className="py-1.5 pe-3 text-end">
                        <bdi dir="ltr">{formatTokenAmount(metricValue(row.bucket, "cpxtb"), locale)}</bdi>
                      </td>
                      <td className="py-1.5 text-end">
                        <bdi dir="ltr">{formatMetric(row.bucket.usd, "usd", symbol, locale)}</bdi>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </section>
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
  const locale = useLocale();
  const t = useT();
  return (
    <>
      <input
        id="report-tz"
        type="text"
        list="report-tz-list"
        autoComplete="off"
        spellCheck={false}
        dir="ltr"
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
          ? t("reports.filter.zoneUnknown")
          : t("reports.filter.browserZone", { zone: isolate(browserTimeZone(), locale) })}
      </p>
    </>
  );
}

/** /reports: a range in the merchant's time zone, its totals, a chart, a table by status, CSV and PDF exports. */
export function ReportsView({ businessName }: { businessName: string | null }) {
  const locale = useLocale();
  const t = useT();
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

  const problem = rangeProblem(range, t);
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
      // pdf-lib and the report layout load only now, in their own chunk; the PDF is in the page's language.
      const { downloadReportPdf } = await import("../report-pdf");
      await downloadReportPdf(data, businessName, locale);
    } catch (error) {
      toast({
        variant: "destructive",
        title: t("reports.export.pdfFailed"),
        description: loadErrorText(error),
      });
    } finally {
      setMakingPdf(false);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <Card className="gap-4">
        <CardContent className="flex flex-col gap-4">
          <Segmented
            label={t("reports.range.label")}
            options={PRESETS.map((id) => ({ id, label: presetLabel(id, t) }))}
            value={preset}
            onChange={choosePreset}
          />
          <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr]">
            <div className="flex flex-col gap-2">
              <Label htmlFor="report-from">{t("reports.filter.from")}</Label>
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
              <Label htmlFor="report-to">{t("reports.filter.to")}</Label>
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
              <Label htmlFor="report-tz">{t("reports.filter.timeZone")}</Label>
              <ZonePicker zone={tz} zones={zones} onChange={chooseZone} />
            </div>
          </div>
          {problem ? (
            <p role="alert" className="font-medium text-destructive text-sm">
              {problem}
            </p>
          ) : (
            <p className="text-muted-foreground text-sm" aria-live="polite">
              {t("reports.filter.summary", {
                from: formatDay(range.from, undefined, intlTag(locale)),
                to: formatDay(range.to, undefined, intlTag(locale)),
                days: daysInRange(range.from, range.to),
                zone: isolate(tz, locale),
              })}
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
              <Download aria-hidden="true" /> {t("reports.export.downloadCsv")}
            </a>
            <Button type="button" variant="outline" onClick={pdf} disabled={!data || makingPdf}>
              <FileText aria-hidden="true" />{" "}
              {makingPdf ? t("reports.export.pdfMaking") : t("reports.export.downloadPdf")}
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => report.refetch()}
              disabled={problem !== null || report.isFetching}
            >
              <RefreshCw aria-hidden="true" className={cn(report.isFetching && "motion-safe:animate-spin")} />
              {t("reports.export.refresh")}
            </Button>
          </div>
          {/* The PDF speaks the reader's language; the CSV is a data format whose column names stay English. */}
          {locale === "en" ? null : (
            <p className="text-muted-foreground text-xs" data-testid="csv-english">
              {t("reports.export.csvEnglish")}
            </p>
          )}
        </CardContent>
      </Card>

      {report.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-border p-4">
          <p className="font-semibold">{t("reports.load.failed")}</p>
          <p className="text-muted-foreground text-sm">{loadErrorText(report.error)}</p>
          <Button variant="outline" onClick={() => report.refetch()}>
            <RefreshCw aria-hidden="true" /> {t("reports.common.tryAgain")}
          </Button>
        </div>
      ) : problem ? null /* the last range's figures, faded, would pass for this one's: the alert says why */ : !data ? (
        <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none">
          <span role="status" className="sr-only">
            {t("reports.load.loading")}
          </span>
        </div>
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
