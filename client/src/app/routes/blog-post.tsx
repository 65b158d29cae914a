import { ArrowLeft, ArrowRight, FileQuestion } from "lucide-react";
import { Link, useParams } from "wouter";
import { MarkdownArticle } from "@/components/content/markdown-article";
import { buttonVariants } from "@/components/ui/button-variants";
import { Spinner } from "@/components/ui/spinner";
import { describeError } from "@/features/auth/error-message";
import { usePost } from "@/features/blog/api/get-post";
import { PostMeta, TagList } from "@/features/blog/components/post-meta";
import { EnglishOnlyNotice } from "@/i18n/english-only-notice";
import { isApiError } from "@/lib/api-client";
import { usePageMeta } from "@/lib/page-meta";

export default function BlogPostPage() {
  const { slug = "" } = useParams<{ slug: string }>();
  const post = usePost(slug);
  const notFound = isApiError(post.error) && post.error.status === 404;
  usePageMeta(
    post.data
      ? { title: post.data.title, description: post.data.summary, image: post.data.image, type: "article" }
      : notFound
        ? { title: "Post not found", description: "There is no blog post at this address." }
        : null,
  );

  return (
    <div className="mx-auto w-full max-w-3xl px-4 pt-8 pb-16 sm:px-6 sm:pt-12">
      <Link
        href="/blog"
        className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3 mb-6" })}
      >
        <ArrowLeft aria-hidden="true" />
        All articles
      </Link>
      {post.isPending ? (
        <div className="flex min-h-[40vh] items-center justify-center" aria-busy="true">
          <Spinner label="Loading the article" />
        </div>
      ) : notFound ? (
        <PostNotFound slug={slug} />
      ) : post.isError ? (
        <div role="alert" className="rounded-xl border border-destructive/50 bg-destructive/10 p-6">
          <p className="font-semibold">The article could not be loaded.</p>
          <p className="mt-1 text-muted-foreground text-sm">{describeError(post.error)}</p>
        </div>
      ) : (
        <article>
          <header className="flex flex-col gap-4">
            <EnglishOnlyNotice />
            <TagList tags={post.data.tags} />
            <h1 className="text-balance font-bold text-3xl leading-tight tracking-tight sm:text-4xl">
              {post.data.title}
            </h1>
            <p className="text-pretty text-lg text-muted-foreground">{post.data.summary}</p>
            <PostMeta date={post.data.date} readingMinutes={post.data.readingMinutes} />
          </header>
          <img
            src={post.data.image}
            alt=""
            width={1200}
            height={630}
            decoding="async"
            className="my-8 aspect-[1200/630] w-full rounded-xl border border-border object-cover"
          />
          <MarkdownArticle html={post.data.html} />
          <nav
            aria-label="More articles"
            className="mt-12 grid gap-4 border-border border-t pt-8 sm:grid-cols-2"
          >
            {post.data.older ? (
              <Link
                href={`/blog/${post.data.older.slug}`}
                className="flex flex-col gap-1 rounded-xl border border-border p-4 hover:border-primary/60"
                rel="prev"
              >
                <span className="inline-flex items-center gap-1 text-muted-foreground text-sm">
                  <ArrowLeft className="size-4" aria-hidden="true" /> Previous article
                </span>
                <span className="font-semibold">{post.data.older.title}</span>
              </Link>
            ) : (
              <span />
            )}
            {post.data.newer ? (
              <Link
                href={`/blog/${post.data.newer.slug}`}
                className="flex flex-col gap-1 rounded-xl border border-border p-4 text-right hover:border-primary/60"
                rel="next"
              >
                <span className="inline-flex items-center justify-end gap-1 text-muted-foreground text-sm">
                  Next article <ArrowRight className="size-4" aria-hidden="true" />
                </span>
                <span className="font-semibold">{post.data.newer.title}</span>
              </Link>
            ) : null}
          </nav>
        </article>
      )}
    </div>
  );
}

function PostNotFound({ slug }: { slug: string }) {
  return (
    <div className="flex flex-col items-center gap-4 py-16 text-center" data-testid="post-not-found">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-primary/12 text-primary">
        <FileQuestion className="size-7" aria-hidden="true" />
      </span>
      <h1 className="font-bold text-3xl tracking-tight">Article not found</h1>
      <p className="max-w-md text-pretty text-muted-foreground">
        There is no article called <code className="break-all rounded bg-muted px-1.5 py-0.5">{slug}</code>.
        It may have been renamed; the blog lists every article we have published.
      </p>
      <Link href="/blog" className={buttonVariants()}>
        Browse all articles
      </Link>
    </div>
  );
}
