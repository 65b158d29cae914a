import { type ClassValue, clsx } from "clsx";
import { createTailwindMerge, getDefaultConfig } from "tailwind-merge";
import { warmUpLater } from "./warm-up";

/** tailwind-merge's default configuration, made ahead of its first call by the warm-up below. */
let config: ReturnType<typeof getDefaultConfig> | undefined;
const twMerge = createTailwindMerge(() => config ?? getDefaultConfig());

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

// tailwind-merge builds its configuration, then its class map, on its first call: some 50 ms in one task on a
// phone-speed CPU. Both are paid before the page renders, not in its first render, each in a task of its own.
warmUpLater(() => {
  config = getDefaultConfig();
});
warmUpLater(() => twMerge("px-2 px-3"));
