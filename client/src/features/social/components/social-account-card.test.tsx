import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { createQueryClient } from "@/lib/query-client";
import { fallbackUser, SOCIAL_USER_STORAGE_KEY } from "../social-storage";

// The session store reads the stored user when its module loads: the invented demo user is stored first.
let Card: typeof import("./social-account-card").SocialAccountCard;
beforeAll(async () => {
  for (const locale of ["en", "de", "ar"] as const) await loadMessages(locale, ["wallet", "account"]);
  window.localStorage.setItem(SOCIAL_USER_STORAGE_KEY, JSON.stringify(fallbackUser("google")));
  Card = (await import("./social-account-card")).SocialAccountCard;
});

afterAll(async () => {
  window.localStorage.removeItem(SOCIAL_USER_STORAGE_KEY);
  await chooseLanguage("en", { remember: false });
});

describe("the invented users' card names them in the reader's words (issue 37)", () => {
  it.each([
    ["en", "Demo user (Google)"],
    ["de", "Demo-Nutzer (Google)"],
    ["ar", "مستخدم تجريبي (Google)"],
  ] as const)("%s", async (locale, name) => {
    await chooseLanguage(locale, { remember: false });
    const card = render(
      <QueryClientProvider client={createQueryClient()}>
        <Card />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId("social-account").textContent).toContain(name);
    card.unmount();
  });
});
