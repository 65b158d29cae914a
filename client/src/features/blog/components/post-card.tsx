import type { BlogPostSummary } from "@common/content";
import { Link } from "wouter";
import { PostMeta, TagList } from "./post-meta";

/** A post in the list: the whole card is one link (its title), the image decorative. */
export function PostCard({ post, eager = false }: { post: BlogPostSummary; eager?: boolean }) {
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-xl border border-border bg-card transition-colors hover:border-primary/60">
      <img
        src={post.image}
        alt=""
        width={1200}
        height={630}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className="aspect-[1200/630] w-full bg-[linear-gradient(135deg,#1b2a52,#0f3d3a)] object-cover"
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <PostMeta date={post.date} readingMinutes={post.readingMinutes} />
        <h2 className="text-balance font-semibold text-xl leading-snug">
          <Link
            href={`/blog/${post.slug}`}
            className="outline-none after:absolute after:inset-0 after:content-[''] focus-visible:underline group-hover:text-primary"
          >
            {post.title}
          </Link>
        </h2>
        <p className="text-muted-foreground">{post.summary}</p>
        <TagList tags={post.tags} className="mt-auto pt-2" />
      </div>
    </article>
  );
}

export function PostCardSkeleton() {
  return (
    <div className="flex flex-col overflow-hidden rounded-xl border border-border bg-card" aria-hidden="true">
      <div className="aspect-[1200/630] w-full animate-pulse bg-muted" />
      <div className="flex flex-col gap-3 p-5">
        <div className="h-4 w-40 animate-pulse rounded bg-muted" />
        <div className="h-6 w-4/5 animate-pulse rounded bg-muted" />
        <div className="h-4 w-full animate-pulse rounded bg-muted" />
        <div className="h-4 w-2/3 animate-pulse rounded bg-muted" />
      </div>
    </div>
  );
}
