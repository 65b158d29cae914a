/** A failed request in words for a toast's description or an inline error: the server's message alone. */
export { errorText as describeError } from "@/lib/error-text";
