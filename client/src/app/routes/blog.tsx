import { PUBLIC_PAGES } from "@common/page-meta";
import { Newspaper, Rss } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { buttonVariants } from "@/components/ui/button-variants";
import { describeError } from "@/features/auth/error-message";
import { usePosts } from "@/features/blog/api/get-posts";
import { PostCard, PostCardSkeleton } from "@/features/blog/components/post-card";
import { EnglishOnlyNotice } from "@/i18n/english-only-notice";
import { usePageMeta } from "@/lib/page-meta";

const meta = PUBLIC_PAGES["/blog"];

export default function BlogPage() {
  usePageMeta(meta);
  const posts = usePosts();

  return (
    <PageFrame title="Blog" icon={Newspaper} width="wide" description={meta.description}>
      <EnglishOnlyNotice />
      <div>
        <a href="/rss.xml" className={buttonVariants({ variant: "outline", size: "sm" })}>
          <Rss aria-hidden="true" />
          RSS feed
        </a>
      </div>
      {posts.isPending ? (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          <span className="sr-only" role="status">
            Loading articles
          </span>
          <PostCardSkeleton />
          <PostCardSkeleton />
          <PostCardSkeleton />
        </div>
      ) : posts.isError ? (
        <div role="alert" className="rounded-xl border border-destructive/50 bg-destructive/10 p-6">
          <p className="font-semibold">The articles could not be loaded.</p>
          <p className="mt-1 text-muted-foreground text-sm">{describeError(posts.error)}</p>
          <button
            type="button"
            onClick={() => posts.refetch()}
            className={buttonVariants({ variant: "outline", size: "sm", className: "mt-4" })}
          >
            Try again
          </button>
        </div>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.data.posts.map((post, index) => (
            <PostCard key={post.slug} post={post} eager={index < 2} />
          ))}
        </div>
      )}
    </PageFrame>
  );
}
