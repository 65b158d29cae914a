import { directionOf, type Locale } from "@common/locales";
import type * as React from "react";

/**
 * A number, amount or address in the reader's text: left to right, isolated (an amount inside Arabic keeps its
 * digits, separators and currency in their order); nothing changes in a left-to-right language.
 */
export function Ltr({ children }: { children: React.ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}

/** `Ltr` for plain text (a plural message cannot hold an element): Unicode's isolate marks, in right to left only. */
export function isolate(text: string, locale: Locale): string {
  return directionOf(locale) === "rtl" ? `\u2066${text}\u2069` : text;
}
