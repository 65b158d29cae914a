import type { MessageArea } from "./locales.ts";

/**
 * The payer's checkout (the pay page, a payment link's page): the words the server preloads beside the app's code
 * when it renders one (decision 036). The client's lazy-pages.ts loads the same (a test holds them equal; the shell
 * keeps its own copy, as every byte of it counts against the budget of `/`).
 */
export const CHECKOUT_MESSAGE_AREAS: readonly MessageArea[] = ["pay", "wallet"];
/** The checkout inside the app's frame (/easy-payment, /payment, a refund's link): its words and the frame's. */
export const FRAMED_CHECKOUT_MESSAGE_AREAS: readonly MessageArea[] = [...CHECKOUT_MESSAGE_AREAS, "shell"];
