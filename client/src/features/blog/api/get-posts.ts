import type { BlogListResponse } from "@common/content";
import { queryOptions, useQuery } from "@tanstack/react-query";

export const postsQueryKey = ["/api/blog"] as const;

/** Every published post, newest first (summaries only). */
export const postsQueryOptions = () => queryOptions<BlogListResponse>({ queryKey: postsQueryKey });

export function usePosts() {
  return useQuery(postsQueryOptions());
}
