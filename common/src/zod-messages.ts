import * as z from "zod";

type Issue = Parameters<NonNullable<z.core.$ZodConfig["customError"]>>[0];

function count(n: unknown, one: string, many: string): string {
  return `${String(n)} ${Number(n) === 1 ? one : many}`;
}

/**
 * Zod's own messages ("Too small: expected string to have >=2 characters") in whole sentences a person reads,
 * for every field that does not carry its own message. Schemas still name their fields in their own messages where
 * it helps ("Username must be at least 3 characters."); this is the floor under them, for the app's forms and the
 * API's validation errors alike.
 */
export function zodSentence(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined || issue.input === null
        ? "This field is required."
        : "This value is not the right kind: check it and try again.";
    case "too_small": {
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1
          ? "This field is required."
          : `Use at least ${count(issue.minimum, "character", "characters")}.`;
      }
      if (issue.origin === "array" || issue.origin === "set") return "Choose at least one.";
      return `Enter ${String(issue.minimum)} or more.`;
    }
    case "too_big":
      if (issue.origin === "string") return `Use at most ${count(issue.maximum, "character", "characters")}.`;
      if (issue.origin === "array" || issue.origin === "set")
        return `Choose at most ${String(issue.maximum)}.`;
      return `Enter ${String(issue.maximum)} or less.`;
    case "invalid_format":
      if (issue.format === "email") return "Enter a valid email address, like name@example.com.";
      if (issue.format === "url") return "Enter a full web address, like https://example.com.";
      return "This is not in the expected format.";
    case "invalid_value":
      return "Choose one of the options.";
    case "not_multiple_of":
      return "This number has too many decimals.";
    default:
      return "This value is not valid.";
  }
}

z.config({ customError: zodSentence });
