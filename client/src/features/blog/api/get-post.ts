import type { BlogPostResponse } from "@common/content";
import { queryOptions, useQuery } from "@tanstack/react-query";

export const postQueryKey = (slug: string) => [`/api/blog/${encodeURIComponent(slug)}`] as const;

/** One post with its rendered body and its neighbours; a 404 `ApiError` for an unknown slug. */
export const postQueryOptions = (slug: string) =>
  queryOptions<BlogPostResponse>({ queryKey: postQueryKey(slug) });

export function usePost(slug: string) {
  return useQuery(postQueryOptions(slug));
}
