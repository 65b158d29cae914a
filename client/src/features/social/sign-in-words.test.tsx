import { render } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { authWords } from "@/features/auth/auth-words";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import arWallet from "@/locales/ar/wallet.json";
import deWallet from "@/locales/de/wallet.json";
import { useSocialSessionWords } from "./sign-in-words";

beforeAll(async () => {
  await loadMessages("en", ["wallet"]);
  await loadMessages("de", ["wallet"]);
  await loadMessages("ar", ["wallet"]);
});

afterEach(async () => {
  await chooseLanguage("en", { remember: false });
});

function PayerPage() {
  useSocialSessionWords();
  return null;
}

describe("the social session's toasts on a payer's page (issue 37)", () => {
  it.each([
    ["de", deWallet],
    ["ar", arWallet],
  ] as const)("speak %s while the page is shown, English once it goes", async (locale, catalog) => {
    await chooseLanguage(locale, { remember: false });
    const page = render(<PayerPage />);
    expect(authWords().signedOut).toBe(catalog["wallet.toast.signedOut"]);
    expect(authWords().signedOutText).toBe(catalog["wallet.toast.signedOutText"]);
    expect(authWords().socialPopupBlocked).toBe(catalog["wallet.toast.socialPopupBlocked"]);
    expect(authWords().socialFailed).toBe(catalog["wallet.toast.socialFailed"]);
    expect(authWords().signedOut).toBe(locale === "de" ? "Abgemeldet" : "تم تسجيل الخروج");
    // A refused sign-in says it in the page's words, not the server's English sentence.
    const refused = new ApiError(401, "401: Sign in with google first.", {
      error: { code: "UNAUTHENTICATED", message: "Sign in with google first.", details: {} },
    });
    expect(authWords().socialFailedText("google", refused)).toBe(
      catalog["wallet.toast.socialNotFinished"].replace("{provider}", "Google"),
    );
    // The password sign-in's words are not the page's to say: they stay English, and still there.
    expect(authWords().signedIn).toBe("Login successful");
    expect(authWords().describe).toBeTypeOf("function");
    page.unmount();
    expect(authWords().signedOut).toBe("Logout successful");
    expect(authWords().socialFailedText("google", refused)).toBe("Sign in with google first.");
    expect(authWords().socialPopupBlocked).toBe(
      "The sign-in window was blocked. Allow pop-ups for this site and try again.",
    );
  });
});
