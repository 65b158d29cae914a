import type { LucideIcon } from "lucide-react";
import type * as React from "react";

/** A titled section of an information page (about, about us). */
export function InfoSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <h2 id={id} className="font-bold text-2xl tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A grid of short points with an icon each. */
export function PointGrid({ points }: { points: { icon: LucideIcon; title: string; text: string }[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {points.map((point) => (
        <li key={point.title} className="flex gap-4 rounded-xl border border-border bg-card p-5">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/12 text-primary">
            <point.icon className="size-5" aria-hidden="true" />
          </span>
          <div className="flex flex-col gap-1">
            <h3 className="font-semibold">{point.title}</h3>
            <p className="text-muted-foreground text-sm leading-relaxed">{point.text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
