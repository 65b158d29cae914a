import { CalendarDays, Clock } from "lucide-react";
import { formatLongDate } from "@/lib/format";
import { cn } from "@/lib/utils";

export const formatPostDate = formatLongDate;

/** Date and reading time of a post, on one line. */
export function PostMeta({
  date,
  readingMinutes,
  className,
}: {
  date: string;
  readingMinutes: number;
  className?: string;
}) {
  return (
    <p className={cn("flex flex-wrap items-center gap-x-4 gap-y-1 text-muted-foreground text-sm", className)}>
      <span className="inline-flex items-center gap-1.5">
        <CalendarDays className="size-4" aria-hidden="true" />
        <time dateTime={date}>{formatPostDate(date)}</time>
      </span>
      <span className="inline-flex items-center gap-1.5">
        <Clock className="size-4" aria-hidden="true" />
        {readingMinutes} min read
      </span>
    </p>
  );
}

export function TagList({ tags, className }: { tags: string[]; className?: string }) {
  return (
    <ul className={cn("flex flex-wrap gap-2", className)} aria-label="Tags">
      {tags.map((tag) => (
        <li
          key={tag}
          className="rounded-full border border-border bg-muted/60 px-2.5 py-0.5 font-medium text-muted-foreground text-xs"
        >
          {tag}
        </li>
      ))}
    </ul>
  );
}
