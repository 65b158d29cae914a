import type { ContactRequest, ContactResponse } from "@common/contact";
import { useMutation } from "@tanstack/react-query";
import { apiRequest, isApiError } from "@/lib/api-client";
import type { FieldErrors } from "@/lib/form-errors";

export async function sendContactMessage(input: ContactRequest): Promise<ContactResponse> {
  const response = await apiRequest("POST", "/api/contact", input);
  return (await response.json()) as ContactResponse;
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}

/** The server's per-field messages of a 400 answer, to show beside each input. */
export function serverFieldErrors(error: unknown): FieldErrors | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const fields = (error.body as { error?: { details?: { fields?: unknown } } } | undefined)?.error?.details
    ?.fields;
  return fields && typeof fields === "object" ? (fields as FieldErrors) : null;
}
