import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Toaster } from "@/components/ui/toaster";
import { toast } from "@/hooks/use-toast";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { SecurityVerification } from "./security-verification";
import { verifyChallenge } from "./verify-challenge";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const challenge = { token: "tok", equation: "7 + 3", level: 2 as const };

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => {
    toast({ title: "" }).dismiss();
  });
});

describe("verifyChallenge", () => {
  it("names a refusal by its code, keeping the server's sentence for one it does not know", async () => {
    const answer = (status: number, body: unknown) =>
      vi.stubGlobal(
        "fetch",
        vi.fn(async () => json(status, body)),
      );
    answer(400, { error: { code: "CHALLENGE_INCORRECT", message: "Incorrect answer." }, challenge });
    expect(await verifyChallenge("t", "1")).toMatchObject({ ok: false, reason: "incorrect", challenge });
    answer(400, { error: { code: "CHALLENGE_INVALID", message: "Expired." }, challenge });
    expect(await verifyChallenge("t", "1")).toMatchObject({ reason: "invalid" });
    answer(429, { error: { code: "RATE_LIMITED", message: "Slow down" } });
    expect(await verifyChallenge("t", "1")).toMatchObject({ reason: "rateLimited", challenge: null });
    answer(400, { error: { code: "SOMETHING_NEW", message: "A new rule." } });
    expect(await verifyChallenge("t", "1")).toMatchObject({ reason: "server", serverMessage: "A new rule." });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect(await verifyChallenge("t", "1")).toMatchObject({ reason: "network", wrongAnswer: false });
  });
});

describe("SecurityVerification in German", () => {
  beforeAll(async () => {
    await loadMessages("de", ["challenge"]);
    await chooseLanguage("de", { remember: false });
  });

  it("says everything in German, with lang and dir on its dialog and its toast", async () => {
    render(
      <>
        <SecurityVerification challenge={challenge} />
        <Toaster />
      </>,
    );
    const dialog = screen.getByRole("dialog", { name: "Sicherheitsprüfung" });
    expect(dialog.getAttribute("lang")).toBe("de");
    expect(dialog.getAttribute("dir")).toBe("ltr");
    expect(within(dialog).getByText("Lösen Sie diese Rechenaufgabe:")).toBeTruthy();
    expect(dialog.textContent).toContain("Sicherheitsstufe: Einfach");
    expect(within(dialog).getByLabelText("Ihre Antwort")).toBeTruthy();
    const toastTitle = await screen.findByText("Sicherheitsabfrage");
    expect(toastTitle.closest("li")?.getAttribute("lang")).toBe("de");
    // Outside the modal dialog, so hidden from the accessibility tree while it is open.
    expect(screen.getByRole("button", { name: "Benachrichtigung schließen", hidden: true })).toBeTruthy();
    expect(screen.getByRole("region", { name: "Benachrichtigungen (F8)", hidden: true })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole("button", { name: "Antwort senden" }));
    expect(within(dialog).getByRole("alert").textContent).toBe("Bitte geben Sie Ihre Antwort ein");

    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        json(400, { error: { code: "CHALLENGE_INCORRECT", message: "Incorrect answer. Please try again." } }),
      ),
    );
    fireEvent.change(within(dialog).getByLabelText("Ihre Antwort"), { target: { value: "11" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Antwort senden" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe(
      "Falsche Antwort. Bitte versuchen Sie es erneut.",
    );
  });
});
