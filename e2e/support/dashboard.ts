import type { APIRequestContext, Page } from "@playwright/test";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { expect } from "../fixtures";
import { PASSWORD, sendSigned } from "./payments";

/**
 * Anvil's public development key #1 (10,000 demo CPXTB, "test test … junk"): the payer of the dashboard specs, so
 * that they do not share nonces with payments.spec.ts (key #0) running beside them. A send that still meets a
 * nonce taken by a parallel sender is tried again (the nonce is read anew each time).
 */
const DASHBOARD_PAYER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;

export async function payFromSecondDevAccount(request: APIRequestContext, to: string, amountBase: bigint) {
  const config = await (await request.get("/api/chain-config")).json();
  const tx = {
    to: config.token.address as Hex,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Hex, amountBase] }),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendSigned(request, DASHBOARD_PAYER_KEY, tx);
    } catch (error) {
      if (attempt >= 5 || !/nonce|underpriced|already known/i.test(String(error))) throw error;
    }
  }
}

/** Signs in through the /auth form, as a person does; the app goes on to /merchant by itself. */
export async function signInThroughForm(page: Page, username: string) {
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Username or email").fill(username);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/merchant$/);
}

/** The dashboard says its live subscription is up (and the indexer healthy). */
export async function expectLive(page: Page) {
  await expect(page.getByTestId("detection-status")).toHaveText(/Automatic Payment Detection Active/, {
    timeout: 30_000,
  });
}

/** Opens the dashboard and waits for it (the first page of a run, on a cold server, can take a while). */
export async function openDashboard(page: Page) {
  await page.goto("/merchant");
  await expect(page.getByRole("heading", { name: "Merchant Dashboard" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "New payment" })).toBeVisible({ timeout: 30_000 });
}
