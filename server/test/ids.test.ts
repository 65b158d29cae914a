import { describe, expect, it } from "vitest";
import { createReference } from "../src/lib/ids.ts";

describe("payment references", () => {
  it("are 22 base64url characters, never starting with '-' or '_', and do not repeat", () => {
    const references = Array.from({ length: 20_000 }, createReference);
    for (const reference of references) expect(reference).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{21}$/);
    expect(new Set(references).size).toBe(references.length);
  });
});
