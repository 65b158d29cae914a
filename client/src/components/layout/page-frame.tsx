import type { LucideIcon } from "lucide-react";
import type * as React from "react";
import { useDocumentTitle } from "@/lib/document-title";
import { cn } from "@/lib/utils";

interface PageFrameProps {
  /** The page's heading; also the document title unless `documentTitle` says otherwise. */
  title: string;
  documentTitle?: string;
  eyebrow?: string;
  description?: React.ReactNode;
  icon?: LucideIcon;
  /** Draws the shared brand backdrop (preloaded on /) behind the header. */
  backdrop?: boolean;
  width?: "narrow" | "default" | "wide";
  className?: string;
  children?: React.ReactNode;
}

const widths = { narrow: "max-w-xl", default: "max-w-4xl", wide: "max-w-6xl" } as const;

export function PageFrame({
  title,
  documentTitle,
  eyebrow,
  description,
  icon: Icon,
  backdrop = false,
  width = "default",
  className,
  children,
}: PageFrameProps) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <div className={cn("relative", className)}>
      {backdrop ? (
        <div aria-hidden="true" className="brand-backdrop absolute inset-x-0 top-0 -z-10 h-72" />
      ) : null}
      <div className={cn("mx-auto w-full px-4 pt-8 pb-16 sm:px-6 sm:pt-12", widths[width])}>
        <header className="mb-8 flex flex-col gap-3">
          {eyebrow ? (
            <p className="font-medium text-primary text-sm uppercase tracking-wider">{eyebrow}</p>
          ) : null}
          <div className="flex items-center gap-3">
            {Icon ? (
              <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary/12 text-primary">
                <Icon className="size-6" aria-hidden="true" />
              </span>
            ) : null}
            {/* A long compound (German, Turkish) breaks, hyphenated where the browser can, rather than widening the page. */}
            <h1 className="min-w-0 text-balance break-words font-bold text-3xl tracking-tight hyphens-auto sm:text-4xl">
              {title}
            </h1>
          </div>
          {description ? (
            <div className="max-w-prose text-pretty text-base text-muted-foreground sm:text-lg">
              {description}
            </div>
          ) : null}
        </header>
        <div className="flex flex-col gap-6">{children}</div>
      </div>
    </div>
  );
}
