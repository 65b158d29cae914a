import type { QueryFunction } from "@tanstack/react-query";
import { ApiError } from "./api-error";
import { fetchWithChallenge } from "./challenge-gate";

// The error type lives apart so that the error screen, in the shell every page loads, reads it without this client.
export { ApiError, isApiError } from "./api-error";

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => "");
  throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, parseJson(text));
}

/** Sends a request with the session cookie; `data`, when given, is sent as JSON. Throws `ApiError` when not OK. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const response = await fetchWithChallenge(url, {
    method,
    headers: data === undefined ? {} : { "Content-Type": "application/json" },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: "include",
  });
  await throwIfNotOk(response);
  return response;
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/** The default data loader: GETs the first element of the query key and parses JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const response = await fetchWithChallenge(String(queryKey[0]), { credentials: "include", signal });
    if (options.on401 === "returnNull" && response.status === 401) return null as T;
    await throwIfNotOk(response);
    return (await response.json()) as T;
  };
}
