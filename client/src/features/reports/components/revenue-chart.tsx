import { intlTag } from "@common/locale-format";
import type { Locale } from "@common/locales";
import type { ReportBucket, ReportMoney } from "@common/reports";
import * as React from "react";
import { formatTokenAmount, formatUsd } from "@/features/payments/format";
import { type t as translate, useLocale, useT } from "@/i18n/i18n";
import { formatDay } from "../range";

export type ChartMetric = "usd" | "cpxtb";

const HEIGHT = 240;
const PAD = { top: 12, right: 8, bottom: 28, left: 56 };

/** The width the chart has, followed as the layout changes (so labels keep their size at 390 px and 1280 px). */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = React.useRef<T>(null);
  const [width, setWidth] = React.useState(fallback);
  React.useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    setWidth(node.clientWidth || fallback);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width) || fallback);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width] as const;
}

/** 0, then 4 steps up to a round number at or above `max`. */
function ticksFor(max: number): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => i * step);
}

/** Axis labels: "$1.2K", "1,2 k $", in the reader's language. */
const compacts = new Map<string, Intl.NumberFormat>();
function compact(locale: Locale, metric: ChartMetric): Intl.NumberFormat {
  const key = `${locale}|${metric}`;
  let format = compacts.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlTag(locale), {
      notation: "compact",
      maximumFractionDigits: 1,
      ...(metric === "usd" ? { style: "currency", currency: "USD" } : {}),
    });
    compacts.set(key, format);
  }
  return format;
}

export function metricValue(b: ReportMoney, metric: ChartMetric): string {
  return metric === "usd" ? b.usd : b.amountReceived;
}

export function formatMetric(value: string, metric: ChartMetric, symbol: string, locale: Locale): string {
  return metric === "usd" ? formatUsd(value, locale) : `${formatTokenAmount(value, locale)} ${symbol}`;
}

/** "Week of 2 Nov 2026" or "2 Nov 2026", in the reader's language. */
export function bucketLabel(
  start: string,
  bucket: ReportBucket,
  locale: Locale,
  t: typeof translate,
): string {
  const day = formatDay(start, undefined, intlTag(locale));
  return bucket === "week" ? t("reports.chart.weekOf", { day }) : day;
}

/**
 * Revenue per bucket as bars: a small hand-drawn SVG (no chart library), coloured by the theme's variables so it
 * reads in both themes. The picture has a text alternative; the numbers are in a table below it.
 */
export function RevenueChart({
  buckets,
  bucket,
  metric,
  symbol,
}: {
  buckets: ReportSummaryBuckets;
  bucket: ReportBucket;
  metric: ChartMetric;
  symbol: string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>(640);
  const locale = useLocale();
  const t = useT();
  const titleId = React.useId();
  const values = buckets.map((b) => Number(metricValue(b, metric)));
  const ticks = ticksFor(Math.max(0, ...values));
  const top = ticks.at(-1)!;
  const plotW = Math.max(10, width - PAD.left - PAD.right);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const band = plotW / Math.max(1, buckets.length);
  const barW = Math.max(1, Math.min(48, band * 0.72));
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const labelEvery = Math.max(1, Math.ceil(buckets.length / Math.max(1, Math.floor(plotW / 72))));
  const total = values.reduce((a, b) => a + b, 0);
  const best = buckets.reduce<{ start: string; value: number } | null>((m, b, i) => {
    const v = values[i]!;
    return v > 0 && (!m || v > m.value) ? { start: b.start, value: v } : m;
  }, null);
  const amountOf = (start: string) =>
    formatMetric(metricValue(buckets.find((b) => b.start === start)!, metric), metric, symbol, locale);
  const summary =
    best === null
      ? t(bucket === "week" ? "reports.chart.summaryEmptyWeeks" : "reports.chart.summaryEmptyDays")
      : t(bucket === "week" ? "reports.chart.summaryWeeks" : "reports.chart.summaryDays", {
          count: buckets.length,
          amount: amountOf(best.start),
          when: bucketLabel(best.start, bucket, locale, t),
        });
  const axis = (v: number) => compact(locale, metric).format(v);

  return (
    // Time runs left to right in every language (as the table's dates): the drawing is not mirrored.
    <div ref={ref} dir="ltr" className="w-full" data-testid="revenue-chart" data-total={total}>
      <svg
        role="img"
        aria-labelledby={titleId}
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        className="block max-w-full overflow-visible"
      >
        <title id={titleId}>{summary}</title>
        {ticks.map((t) => (
          <g key={t}>
            <line
              x1={PAD.left}
              x2={PAD.left + plotW}
              y1={y(t)}
              y2={y(t)}
              className="stroke-border"
              strokeDasharray={t === 0 ? undefined : "3 4"}
            />
            <text
              x={PAD.left - 8}
              y={y(t)}
              dy="0.32em"
              textAnchor="end"
              className="fill-muted-foreground text-[11px] tabular-nums"
            >
              {axis(t)}
            </text>
          </g>
        ))}
        {buckets.map((b, i) => {
          const v = values[i]!;
          const x = PAD.left + i * band + (band - barW) / 2;
          const h = PAD.top + plotH - y(v);
          return (
            <g key={b.start} data-bucket={b.start} data-value={metricValue(b, metric)}>
              {v > 0 ? (
                <rect x={x} y={y(v)} width={barW} height={Math.max(1, h)} rx={2} className="fill-primary">
                  <title>
                    {t("reports.chart.bar", {
                      when: bucketLabel(b.start, bucket, locale, t),
                      amount: formatMetric(metricValue(b, metric), metric, symbol, locale),
                      count: b.count,
                    })}
                  </title>
                </rect>
              ) : null}
              {i % labelEvery === 0 ? (
                <text
                  x={PAD.left + i * band + band / 2}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  className="fill-muted-foreground text-[11px]"
                >
                  {formatDay(b.start, { month: "short", day: "numeric" }, intlTag(locale))}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

type ReportSummaryBuckets = Array<ReportMoney & { start: string }>;
