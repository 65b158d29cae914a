import { act, render } from "@testing-library/react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import deWallet from "@/locales/de/wallet.json";
import { useSocialSessionWords } from "./sign-in-words";
import { PENDING_REAL_LOGIN_KEY } from "./social-keys";

function PayerPage() {
  useSocialSessionWords();
  return null;
}

// The browser comes back from a real sign-in that the server then refuses: the toast must not be said in English
// because the session's request answered before the page (its chunk and catalog) had come (issue 37).
const toast = vi.fn();
vi.mock("@/hooks/use-toast", () => ({ toast: (...args: unknown[]) => toast(...args) }));
vi.mock("./api/social", () => ({
  postSocialAuth: () =>
    Promise.reject(
      new ApiError(401, "401: Sign in with google first.", {
        error: { code: "UNAUTHENTICATED", message: "Sign in with google first.", details: {} },
      }),
    ),
}));

beforeAll(async () => {
  await loadMessages("de", ["wallet"]);
  window.sessionStorage.setItem(PENDING_REAL_LOGIN_KEY, "google");
});
afterAll(async () => {
  window.sessionStorage.clear();
  await chooseLanguage("en", { remember: false });
});

describe("a social sign-in refused at start", () => {
  it("waits for the page's words before its toast", async () => {
    vi.useFakeTimers();
    try {
      const { resumeRealLogin } = await import("./social-session");
      const resumed = resumeRealLogin();
      // The server's refusal came back; the page has not handed its words yet: nothing is said.
      await vi.advanceTimersByTimeAsync(100);
      expect(toast).not.toHaveBeenCalled();
      await chooseLanguage("de", { remember: false });
      await act(async () => {
        render(<PayerPage />);
      });
      await vi.advanceTimersByTimeAsync(0);
      await resumed;
      expect(toast).toHaveBeenCalledTimes(1);
      expect(toast.mock.calls[0]?.[0]).toMatchObject({
        title: deWallet["wallet.toast.socialFailed"],
        description: deWallet["wallet.toast.socialNotFinished"].replace("{provider}", "Google"),
        variant: "destructive",
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
