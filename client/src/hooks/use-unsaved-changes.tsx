import * as React from "react";
import { useLocation } from "wouter";
import { setBackGuard } from "@/lib/back-guard";

// Loaded when first asked: the forms it guards (the dashboard's among them) keep their first render light.
const ConfirmDialog = React.lazy(() =>
  import("@/components/ui/confirm-dialog").then((m) => ({ default: m.ConfirmDialog })),
);

/** The "discard your changes?" question's words, for a translated screen. */
export type UnsavedWords = { title: string; description: string; confirm: string; cancel: string };

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What a field holds now, as one comparable string. */
function fieldValue(element: Element): string | null {
  if (element instanceof HTMLInputElement) {
    if (["submit", "button", "reset", "hidden", "file", "image"].includes(element.type)) return null;
    return element.type === "checkbox" || element.type === "radio" ? String(element.checked) : element.value;
  }
  if (element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) return element.value;
  return null;
}

/** The in-page link a click follows, when it leaves for another page of the app in this tab. */
function inAppLink(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = (event.target as Element | null)?.closest?.("a[href]");
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  // The same page (a hash link, a link to where one already is) loses nothing.
  if (url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return url.pathname + url.search + url.hash;
}

type Guard = {
  isDirty: () => boolean;
  ask: (leave: () => void) => void;
  navigate: (href: string, options?: { replace?: boolean }) => void;
};
/** The guarded forms on screen, oldest first: a link click asks the first of them with unsaved typing. */
const guards: Guard[] = [];

function onDocumentClick(event: MouseEvent) {
  const guard = guards.find((g) => g.isDirty());
  if (!guard) return;
  const href = inAppLink(event);
  if (!href) return;
  // Before the router's own handler (capture on the document runs first): the link waits for the answer.
  event.preventDefault();
  event.stopPropagation();
  guard.ask(() => guard.navigate(href));
}

/** Where this tab is in the app: the page a Back or Forward press is taken back to while the question is asked. */
const here = () => window.location.pathname + window.location.search + window.location.hash;
let lastHref = typeof window === "undefined" ? "" : here();
const onNavigated = () => {
  lastHref = here();
};

/**
 * The browser's Back and Forward buttons (heard before the router, lib/back-guard.ts): the history has already
 * moved when `popstate` arrives, so the page the form is on is put back (the router then stays on it) and the
 * question asked; leaving goes on to where the
 * button pointed.
 */
function onPopState() {
  const guard = guards.find((g) => g.isDirty());
  const target = here();
  if (!guard || target === lastHref) {
    lastHref = target;
    return;
  }
  window.history.pushState(window.history.state, "", lastHref);
  guard.ask(() => guard.navigate(target, { replace: true }));
}

/**
 * Keeps a half-filled form from being lost without a word (issue 36): while the form holds typing that was not
 * saved, leaving for another page of the app (a link, or the browser's Back and Forward), closing the sheet or dialog it sits in (`confirmDiscard`),
 * or closing the tab (the browser's own `beforeunload` question) first asks "Discard your changes?".
 *
 * Works with any form, controlled or not: attach `formRef`; a field counts as changed when its value differs from
 * the one it had when it appeared or was first focused. Call `markSaved()` once the form's values are saved (or
 * reset), and render `dialog`.
 */
export function useUnsavedChanges({
  what = "this form",
  words,
}: {
  what?: string;
  /** The question's words in a translated screen's language (English by default: it guards English forms too). */
  words?: UnsavedWords;
} = {}) {
  const [form, setForm] = React.useState<HTMLFormElement | null>(null);
  const [dirty, setDirty] = React.useState(false);
  const [pending, setPending] = React.useState<(() => void) | null>(null);
  const initial = React.useRef(new WeakMap<Element, string>());
  const dirtyRef = React.useRef(false);
  const [, navigate] = useLocation();

  const record = React.useCallback((element: Element) => {
    const value = fieldValue(element);
    if (value !== null && !initial.current.has(element)) initial.current.set(element, value);
  }, []);

  const check = React.useCallback(() => {
    if (!form) return;
    let changed = false;
    for (const element of Array.from(form.elements) as FieldElement[]) {
      const value = fieldValue(element);
      if (value === null) continue;
      // A field shown after the rest (a fold opened) starts from what it holds when it appears.
      if (!initial.current.has(element)) initial.current.set(element, value);
      if (initial.current.get(element) !== value) changed = true;
    }
    dirtyRef.current = changed;
    // Not in this event's task: this listener runs before React's own (on the root), and a render in between
    // would put a controlled field back to its old value before React reads the new one.
    setTimeout(() => setDirty(dirtyRef.current), 0);
  }, [form]);

  const markSaved = React.useCallback(() => {
    initial.current = new WeakMap();
    if (form) for (const element of Array.from(form.elements)) record(element);
    dirtyRef.current = false;
    setDirty(false);
  }, [form, record]);

  React.useEffect(() => {
    if (!form) {
      // The form is gone (its sheet closed after saving): nothing of it is left to lose.
      dirtyRef.current = false;
      setDirty(false);
      return;
    }
    for (const element of Array.from(form.elements)) record(element);
    const focusin = (event: FocusEvent) => event.target instanceof Element && record(event.target);
    form.addEventListener("focusin", focusin);
    form.addEventListener("input", check);
    form.addEventListener("change", check);
    return () => {
      form.removeEventListener("focusin", focusin);
      form.removeEventListener("input", check);
      form.removeEventListener("change", check);
    };
  }, [form, record, check]);

  // Tab close and reload: the browser asks in its own words (a page cannot style that one).
  React.useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", beforeUnload);
    return () => window.removeEventListener("beforeunload", beforeUnload);
  }, [dirty]);

  // In-app links: one click listener for every guarded form.
  React.useEffect(() => {
    const guard: Guard = {
      isDirty: () => dirtyRef.current,
      ask: (leave) => setPending(() => leave),
      navigate: (href, options) => {
        dirtyRef.current = false;
        setDirty(false);
        navigate(href, options);
      },
    };
    guards.push(guard);
    if (guards.length === 1) {
      lastHref = here();
      document.addEventListener("click", onDocumentClick, true);
      setBackGuard(onPopState);
      // The router's own moves (wouter dispatches these for pushState and replaceState).
      window.addEventListener("pushState", onNavigated);
      window.addEventListener("replaceState", onNavigated);
    }
    return () => {
      guards.splice(guards.indexOf(guard), 1);
      if (guards.length === 0) {
        document.removeEventListener("click", onDocumentClick, true);
        setBackGuard(null);
        window.removeEventListener("pushState", onNavigated);
        window.removeEventListener("replaceState", onNavigated);
      }
    };
  }, [navigate]);

  /** Runs `discard` at once when nothing is unsaved; otherwise once the person agrees to lose the changes. */
  const confirmDiscard = React.useCallback((discard: () => void) => {
    if (!dirtyRef.current) discard();
    else setPending(() => discard);
  }, []);

  const dialog = pending ? (
    <React.Suspense fallback={null}>
      <ConfirmDialog
        open
        title={words?.title ?? "Discard your changes?"}
        description={
          words?.description ?? `What you typed in ${what} has not been saved. If you leave now, it is lost.`
        }
        confirmLabel={words?.confirm ?? "Discard changes"}
        cancelLabel={words?.cancel ?? "Keep editing"}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const leave = pending;
          setPending(null);
          dirtyRef.current = false;
          setDirty(false);
          leave?.();
        }}
      />
    </React.Suspense>
  ) : null;

  return { formRef: setForm, dirty, markSaved, confirmDiscard, dialog };
}
