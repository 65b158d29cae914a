import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { chooseLanguage, loadMessages, t } from "@/i18n/i18n";
import { socialFailureText, socialSessionWords } from "./social-session-words";

beforeAll(async () => {
  for (const locale of ["en", "de", "ar"] as const) await loadMessages(locale, ["wallet"]);
});

afterEach(async () => {
  await chooseLanguage("en", { remember: false });
});

describe("the social session's words, one copy for the checkout, /buy-cpxtb and the account screens (issue 37)", () => {
  it.each([
    ["en", "Signing in with Google did not finish. Nothing was changed; please try again.", "Login Failed"],
    [
      "de",
      "Die Anmeldung mit Google wurde nicht abgeschlossen. Es wurde nichts geändert; bitte versuchen Sie es erneut.",
      "Anmeldung fehlgeschlagen",
    ],
    [
      "ar",
      "لم يكتمل تسجيل الدخول باستخدام Google. لم يتغير شيء، يُرجى المحاولة مرة أخرى.",
      "تعذّر تسجيل الدخول",
    ],
  ] as const)("a refused sign-in in %s", async (locale, text, title) => {
    await chooseLanguage(locale, { remember: false });
    const words = socialSessionWords(t);
    expect(words.socialFailed).toBe(title);
    expect(words.socialFailedText("google", new Error("Sign in with google first."))).toBe(text);
    expect(socialFailureText(t, "twitter")).toContain("X");
  });
});
