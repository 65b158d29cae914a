import { ChevronLeft, ChevronRight, Printer } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { cn } from "@/lib/utils";
import { SLIDES, type Slide } from "../slides";
import "./slide-deck.css";

const SWIPE_PX = 50;

function slideFromHash(): number {
  const n = Number(window.location.hash.replace(/^#/, ""));
  return Number.isInteger(n) && n >= 1 && n <= SLIDES.length ? n - 1 : 0;
}

/** Where a key moves the deck, or null when it is not a navigation key. */
function keyTarget(key: string, index: number, last: number): number | null {
  switch (key) {
    case "ArrowRight":
    case "PageDown":
      return Math.min(last, index + 1);
    case "ArrowLeft":
    case "PageUp":
      return Math.max(0, index - 1);
    case "Home":
      return 0;
    case "End":
      return last;
    default:
      return null;
  }
}

/** The deck: arrow keys, Page Up/Down, Home/End and swipes move; the hash (#3) keeps the slide on reload. */
export function SlideDeck() {
  const [index, setIndex] = React.useState(slideFromHash);
  const touchStart = React.useRef<{ x: number; y: number } | null>(null);
  const last = SLIDES.length - 1;

  const go = React.useCallback((next: number) => setIndex(Math.min(last, Math.max(0, next))), [last]);

  React.useEffect(() => {
    window.history.replaceState(window.history.state, "", `#${index + 1}`);
  }, [index]);

  React.useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const element = event.target as HTMLElement | null;
      if (element?.closest("input, textarea, select, [role=dialog]")) return;
      if (keyTarget(event.key, 0, last) === null) return;
      event.preventDefault();
      setIndex((i) => keyTarget(event.key, i, last) ?? i);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [last]);

  const onTouchStart = (event: React.TouchEvent) => {
    const touch = event.touches[0];
    touchStart.current = touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: React.TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) go(index + (dx < 0 ? 1 : -1));
  };

  return (
    <div className="slide-deck flex flex-col gap-4">
      <section
        aria-roledescription="carousel"
        aria-label="Platform presentation"
        className="relative"
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
      >
        {SLIDES.map((slide, i) => (
          <SlideView key={slide.title} slide={slide} number={i + 1} current={i === index} />
        ))}
      </section>
      <div className="no-print flex items-center justify-between gap-3">
        <Button
          variant="outline"
          size="icon"
          onClick={() => go(index - 1)}
          disabled={index === 0}
          aria-label="Previous slide"
        >
          <ChevronLeft aria-hidden="true" />
        </Button>
        <div className="flex flex-col items-center gap-2">
          <p className="font-medium tabular-nums" aria-live="polite" data-testid="slide-counter">
            {index + 1} / {SLIDES.length}
          </p>
          <div className="hidden gap-1.5 sm:flex" aria-hidden="true">
            {SLIDES.map((slide, i) => (
              <span
                key={slide.title}
                className={cn(
                  "h-1.5 rounded-full transition-all",
                  i === index ? "w-6 bg-primary" : "w-1.5 bg-muted-foreground/40",
                )}
              />
            ))}
          </div>
        </div>
        <Button
          variant="outline"
          size="icon"
          onClick={() => go(index + 1)}
          disabled={index === last}
          aria-label="Next slide"
        >
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
      <div className="no-print flex flex-wrap items-center justify-between gap-3 text-muted-foreground text-sm">
        <p>Use the arrow keys or swipe to move between slides.</p>
        <Button variant="ghost" size="sm" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print or save as PDF
        </Button>
      </div>
    </div>
  );
}

function SlideView({ slide, number, current }: { slide: Slide; number: number; current: boolean }) {
  return (
    <article
      aria-roledescription="slide"
      aria-label={`${number} of ${SLIDES.length}: ${slide.title}`}
      aria-hidden={!current}
      data-current={current}
      className={cn(
        "slide relative flex-col justify-center gap-6 overflow-hidden rounded-2xl border border-border bg-card p-6 shadow-lg sm:p-12",
        current ? "flex" : "hidden print:flex",
      )}
    >
      <div aria-hidden="true" className="hero-glow pointer-events-none absolute inset-0 opacity-60" />
      <div className="relative flex items-center gap-3">
        <span className="inline-flex size-11 items-center justify-center rounded-xl bg-primary/15 text-primary">
          <slide.icon className="size-6" aria-hidden="true" />
        </span>
        <p className="font-medium text-primary text-sm uppercase tracking-wider">{slide.eyebrow}</p>
      </div>
      <h2 className="relative text-balance font-bold text-3xl leading-tight tracking-tight sm:text-5xl">
        {slide.title}
      </h2>
      <ul className="relative flex flex-col gap-3 text-lg sm:text-xl">
        {slide.points.map((point) => (
          <li key={point} className="flex gap-3">
            <span className="mt-2.5 size-2 shrink-0 rounded-full bg-primary" aria-hidden="true" />
            <span className="text-pretty">{point}</span>
          </li>
        ))}
      </ul>
      {slide.cta ? (
        <div className="relative no-print">
          <Link
            href={slide.cta.href}
            className={buttonVariants({ size: "lg" })}
            tabIndex={current ? undefined : -1}
          >
            {slide.cta.label}
          </Link>
        </div>
      ) : null}
      <p className="absolute right-5 bottom-4 text-muted-foreground text-sm tabular-nums">
        {number} / {SLIDES.length}
      </p>
    </article>
  );
}
