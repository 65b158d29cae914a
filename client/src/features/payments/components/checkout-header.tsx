import type * as React from "react";

/** Whom the payer pays: the merchant's logo (or initial) and name, as the checkout pages show it. */
export type CheckoutMerchant = { name: string; logoUrl: string | null; pageTheme: string };

/**
 * The checkout's minimal header (the app's own header is hidden on the pay page and the link page): the merchant,
 * a line saying what this page is, and `end` (the theme toggle) unless the merchant fixed the page's theme, which
 * leaves nothing for the toggle to change.
 */
export function CheckoutHeader({
  merchant,
  subtitle,
  end,
}: {
  merchant: CheckoutMerchant | undefined;
  subtitle: React.ReactNode;
  end?: React.ReactNode;
}) {
  return (
    <header className="flex items-center gap-3" data-testid="checkout-header">
      {merchant?.logoUrl ? (
        <img
          src={merchant.logoUrl}
          alt=""
          width={44}
          height={44}
          className="size-11 shrink-0 rounded-md border border-border bg-white object-contain"
        />
      ) : (
        <span
          aria-hidden="true"
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-md bg-primary font-bold text-lg text-primary-foreground"
        >
          {merchant ? merchant.name.slice(0, 1).toUpperCase() : "C"}
        </span>
      )}
      <div className="min-w-0 flex-1">
        <h1 className="text-balance break-words font-bold text-xl leading-tight" data-testid="merchant-name">
          {merchant ? merchant.name : "CPXTB Pay"}
        </h1>
        <p className="text-muted-foreground text-sm">{subtitle}</p>
      </div>
      {!merchant || merchant.pageTheme === "auto" ? end : null}
    </header>
  );
}
