import type { ReportBucket, ReportSummary } from "@common/reports";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export type ReportParams = { from: string; to: string; tz: string; bucket: ReportBucket };

export const reportsQueryKeyRoot = ["merchant-report-summary"] as const;

export function reportSearch(params: Omit<ReportParams, "bucket"> & { bucket?: ReportBucket }): string {
  const search = new URLSearchParams({ from: params.from, to: params.to, tz: params.tz });
  if (params.bucket) search.set("bucket", params.bucket);
  return search.toString();
}

/** GET /api/merchant/reports/summary: totals and buckets of the range. */
export async function getReportSummary(params: ReportParams): Promise<ReportSummary> {
  const response = await apiRequest("GET", `/api/merchant/reports/summary?${reportSearch(params)}`);
  return (await response.json()) as ReportSummary;
}

export const reportSummaryQueryOptions = (params: ReportParams) =>
  queryOptions({
    queryKey: [...reportsQueryKeyRoot, params.from, params.to, params.tz, params.bucket] as const,
    queryFn: () => getReportSummary(params),
    // A new range keeps the previous report on screen until the new one arrives (no flash of a skeleton).
    placeholderData: keepPreviousData,
  });

export function useReportSummary(params: ReportParams, enabled: boolean) {
  return useQuery({ ...reportSummaryQueryOptions(params), enabled });
}

/** The CSV export's address: a plain link, streamed by the server straight into the download. */
export function reportCsvUrl(params: Omit<ReportParams, "bucket">): string {
  return `/api/merchant/reports/payments.csv?${reportSearch(params)}`;
}
