import { describe, expect, it } from "vitest";
import { ApiError } from "./api-client";
import { errorText } from "./error-text";

function apiError(status: number, body: unknown, statusText = "") {
  const text = body === undefined ? statusText : typeof body === "string" ? body : JSON.stringify(body);
  return new ApiError(status, `${status}: ${text}`, typeof body === "object" ? body : undefined);
}

describe("errorText: a failed request in words, never a status code", () => {
  it("is the server's message alone", () => {
    const error = apiError(422, { error: { code: "INSUFFICIENT", message: "Your wallet holds 0 CPXTB." } });
    expect(errorText(error)).toBe("Your wallet holds 0 CPXTB.");
    expect(
      errorText(apiError(400, { error: { code: "BAD_CODE", message: "That code is not correct." } })),
    ).toBe("That code is not correct.");
  });

  it("says what a bare status means when the server gave no sentence", () => {
    expect(errorText(apiError(503, undefined, "Service Unavailable"))).toBe(
      "The server had a problem. Please try again in a moment.",
    );
    expect(errorText(apiError(401, undefined, "Unauthorized"))).toBe(
      "You are signed out. Sign in and try again.",
    );
    expect(errorText(apiError(429, { challenge: { token: "t" } }))).toMatch(/Too many attempts/);
    expect(errorText(apiError(418, undefined, "I'm a teapot"))).toBe("I'm a teapot");
    expect(errorText(apiError(400, { something: "else" }))).toBe(
      "The request was not accepted. Please check it and try again.",
    );
  });

  it("never starts with a status code", () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429, 500, 502]) {
      for (const body of [undefined, "plain words here", { error: { message: "Words." } }, { x: 1 }]) {
        expect(errorText(apiError(status, body, "Status Text"))).not.toMatch(/^\d{3}\b|\{/);
      }
    }
    expect(errorText(new Error("409: Taken already"))).toBe("Taken already");
  });

  it("explains a network failure and keeps other errors' own words", () => {
    expect(errorText(new TypeError("Failed to fetch"))).toMatch(/Could not reach the server/);
    expect(errorText(new Error("The wallet refused."))).toBe("The wallet refused.");
    expect(errorText("nope")).toBe("Something went wrong. Please try again.");
  });
});
