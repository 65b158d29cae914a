/**
 * A non-OK HTTP answer. The message follows the spec's error catalogue ("<status>: <body text or status text>");
 * the parsed JSON body is kept so features can react to it (e.g. a 429 carrying a `challenge`).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
