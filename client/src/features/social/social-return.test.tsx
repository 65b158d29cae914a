import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Toaster } from "@/components/ui/toaster";
import { chooseLanguage, loadMessages, t } from "@/i18n/i18n";
import { readSocialReturn, socialReturnWords, takeSocialReturn, useSocialReturn } from "./social-return";

beforeAll(async () => {
  await loadMessages("en", ["wallet"]);
  await loadMessages("de", ["wallet"]);
  await loadMessages("ar", ["wallet"]);
});

afterEach(async () => {
  await chooseLanguage("en", { remember: false });
  window.history.replaceState(null, "", "/");
  vi.unstubAllGlobals();
  vi.resetModules();
  sessionStorage.clear();
});

function Page() {
  useSocialReturn();
  return null;
}

describe("a social sign-in that came back refused", () => {
  it("reads the reason and the provider, and nothing the server does not send", () => {
    expect(readSocialReturn("?socialLogin=cancelled&socialProvider=google")).toEqual({
      reason: "cancelled",
      provider: "google",
    });
    expect(readSocialReturn("?a=1&socialLogin=linkedElsewhere&socialProvider=twitter")).toEqual({
      reason: "linkedElsewhere",
      provider: "twitter",
    });
    expect(readSocialReturn("?socialLogin=hacked&socialProvider=google")).toBeNull();
    expect(readSocialReturn("?socialLogin=cancelled&socialProvider=evil")).toBeNull();
    expect(readSocialReturn("?socialLogin=cancelled")).toBeNull();
    expect(readSocialReturn("")).toBeNull();
  });

  it("says what happened in the reader's language, naming the provider", async () => {
    const back = { reason: "cancelled", provider: "google" } as const;
    expect(socialReturnWords(t, back)).toEqual({
      title: "Sign-in cancelled",
      text: "You cancelled signing in with Google. Nothing was changed; you can try again.",
    });
    expect(socialReturnWords(t, { reason: "unreachable", provider: "twitter" }).text).toBe(
      "We could not reach X to finish signing in. Try again in a moment.",
    );
    await chooseLanguage("de", { remember: false });
    expect(socialReturnWords(t, back)).toEqual({
      title: "Anmeldung abgebrochen",
      text: "Sie haben die Anmeldung mit Google abgebrochen. Es wurde nichts geändert; Sie können es erneut versuchen.",
    });
    await chooseLanguage("ar", { remember: false });
    expect(socialReturnWords(t, { reason: "expired", provider: "apple" }).text).toBe(
      "انتهت صلاحية تسجيل الدخول باستخدام Apple أو سبق استخدامه. يُرجى البدء من جديد.",
    );
  });

  it("takes the two parameters off the address, keeping the rest, so a reload does not say it again", () => {
    window.history.replaceState(null, "", "/pay/pay_1?ref=x&socialLogin=expired&socialProvider=facebook#top");
    expect(takeSocialReturn()).toEqual({ reason: "expired", provider: "facebook" });
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      "/pay/pay_1?ref=x#top",
    );
    expect(takeSocialReturn()).toBeNull();
    // A report that is not one the server sends goes too, unsaid.
    window.history.replaceState(null, "", "/auth?socialLogin=<b>&socialProvider=google");
    expect(takeSocialReturn()).toBeNull();
    expect(window.location.search).toBe("");
  });

  it("the page shows it once in a toast, in German", async () => {
    await chooseLanguage("de", { remember: false });
    window.history.replaceState(null, "", "/auth?socialLogin=signInAgain&socialProvider=google");
    render(
      <>
        <Page />
        <Toaster />
      </>,
    );
    expect(await screen.findByText("Bitte melden Sie sich erneut an")).toBeTruthy();
    expect(
      screen.getByText(
        "Ihre Sitzung ist abgelaufen, während Sie bei Google waren. Melden Sie sich erneut an und verknüpfen Sie dann das Konto.",
      ),
    ).toBeTruthy();
    expect(window.location.search).toBe("");
  });

  it("nothing is completed with the refused flow: the pending real login is dropped, not posted", async () => {
    sessionStorage.setItem("cpxtb_social_pending_login", "google");
    window.history.replaceState(null, "", "/auth?socialLogin=cancelled&socialProvider=google");
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    // A fresh start of the app: the state it was opened with is read anew.
    const keys = await import("./social-keys");
    expect(keys.socialStateAtStart()).toMatchObject({ pendingLogin: "google", refusedReturn: true });
    const session = await import("./social-session");
    await act(() => session.resumeRealLogin());
    expect(fetch).not.toHaveBeenCalled();
    expect(sessionStorage.getItem("cpxtb_social_pending_login")).toBeNull();
  });
});
