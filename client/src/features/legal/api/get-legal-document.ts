import type { LegalDocumentResponse, LegalSlug } from "@common/content";
import { queryOptions, useQuery } from "@tanstack/react-query";

export const legalDocumentQueryKey = (slug: LegalSlug) => [`/api/legal/${slug}`] as const;

export const legalDocumentQueryOptions = (slug: LegalSlug) =>
  queryOptions<LegalDocumentResponse>({ queryKey: legalDocumentQueryKey(slug) });

export function useLegalDocument(slug: LegalSlug) {
  return useQuery(legalDocumentQueryOptions(slug));
}
