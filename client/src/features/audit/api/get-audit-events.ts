import type { AuditAction, AuditEvent } from "@common/audit";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export type AuditFilter = {
  action?: AuditAction | undefined;
  from?: string | undefined;
  to?: string | undefined;
};
type AuditPage = { items: AuditEvent[]; nextCursor: string | null };

export const AUDIT_EVENTS_QUERY_KEY = ["/api/merchant/audit-events"] as const;

export async function getAuditEvents(filter: AuditFilter, cursor: string | null): Promise<AuditPage> {
  const params = new URLSearchParams({ limit: "50" });
  if (filter.action) params.set("action", filter.action);
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (cursor) params.set("cursor", cursor);
  return (await apiRequest("GET", `/api/merchant/audit-events?${params}`)).json();
}

export function auditEventsQueryOptions(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: [...AUDIT_EVENTS_QUERY_KEY, filter] as const,
    queryFn: ({ pageParam }) => getAuditEvents(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export const useAuditEvents = (filter: AuditFilter) => useInfiniteQuery(auditEventsQueryOptions(filter));
