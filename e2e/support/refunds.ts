import type { APIRequestContext, Page } from "@playwright/test";
import { parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "../fixtures";
import {
  createMerchant,
  createPayment,
  installWallet,
  PAYER_KEY,
  payFromDevAccount,
  sendSigned,
} from "./payments";

/**
 * Anvil's public development key #3 (the embedded chain's "demo merchant": ETH, no CPXTB): pays the gas money of
 * the refund specs' merchants, whose receiving wallets are fresh keys. No other spec sends from it.
 */
const GAS_FUNDER_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6" as const;
export const payerAddress = privateKeyToAccount(PAYER_KEY).address;

/**
 * A merchant whose receiving wallet is the page's browser wallet (so it can sign the refund), with gas money, and
 * a payment of `amount` CPXTB paid `excess` CPXTB too much by anvil key #0, completed on chain.
 */
export async function overpaidPayment(
  page: Page,
  options: { amount: string; excess: string; description: string },
) {
  const request: APIRequestContext = page.request;
  const merchant = await createMerchant(request);
  await sendSigned(request, GAS_FUNDER_KEY, { to: merchant.address, value: parseUnits("1", 18) });
  await installWallet(page, merchant.key);
  const payment = await createPayment(request, {
    currency: "CPXTB",
    amount: options.amount,
    description: options.description,
  });
  const txHash = await payFromDevAccount(
    request,
    payment.receivingAddress,
    BigInt(payment.amountDueBase) + parseUnits(options.excess, 18),
  );
  // Another amount than due matches by its hash (as the pay page posts it), not by amount.
  await expect
    .poll(
      async () =>
        (await request.post(`/api/payments/public/${payment.reference}/tx`, { data: { txHash } })).status(),
      { timeout: 30_000 },
    )
    .toBe(200);
  await expect
    .poll(
      async () => (await (await request.get(`/api/payments/public/${payment.reference}`)).json()).status,
      {
        timeout: 30_000,
      },
    )
    .toBe("completed");
  return { merchant, payment };
}
