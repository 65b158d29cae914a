import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";
import { warmUpLater } from "./warm-up";

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

// tailwind-merge builds its class map on its first call: before the page renders, not in its first render.
warmUpLater(() => twMerge("px-2 px-3"));
