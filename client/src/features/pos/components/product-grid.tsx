import { Minus, Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useLocale, useT } from "@/i18n/i18n";
import { Ltr } from "@/i18n/ltr";
import { type Cart, cartLines, formatThousandthsIn, type PosItem, thousandthsOf } from "../cart";

/** The merchant's products (fixed-price links) as large tiles; a tap adds one, the cart below lists them. */
export function ProductGrid({
  items,
  cart,
  unit,
  otherCurrency,
  onChange,
}: {
  items: readonly PosItem[];
  cart: Cart;
  unit: "USD" | "CPXTB";
  otherCurrency: number;
  onChange: (id: string, delta: number) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const lines = cartLines(items, cart);
  const other = unit === "USD" ? "CPXTB" : "USD";
  const price = (thousandths: bigint) => formatThousandthsIn(thousandths, locale);
  return (
    <section aria-labelledby="pos-products" className="flex flex-col gap-3" data-testid="pos-products">
      <h2 id="pos-products" className="sr-only">
        {t("pos.products.heading")}
      </h2>
      {items.length > 0 ? (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
          {items.map((item) => {
            const quantity = cart[item.id] ?? 0;
            return (
              <li key={item.id}>
                <button
                  type="button"
                  onClick={() => onChange(item.id, 1)}
                  aria-label={t(quantity ? "pos.products.addMore" : "pos.products.add", {
                    title: item.title,
                    price: price(thousandthsOf(item.price)),
                    currency: item.currency,
                    quantity,
                  })}
                  className={`relative flex min-h-20 w-full items-center gap-2 rounded-xl border p-2 text-start outline-none transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/60 ${quantity ? "border-primary bg-primary/10" : "border-border bg-card"}`}
                  data-testid="pos-product"
                >
                  {item.imageUrl ? (
                    <img src={item.imageUrl} alt="" className="size-12 shrink-0 rounded-md object-cover" />
                  ) : null}
                  <span className="flex min-w-0 flex-col">
                    <span className="line-clamp-2 font-medium text-sm leading-tight">{item.title}</span>
                    <span className="text-muted-foreground text-sm tabular-nums">
                      <Ltr>
                        {price(thousandthsOf(item.price))} {item.currency}
                      </Ltr>
                    </span>
                  </span>
                  {quantity ? (
                    <span
                      aria-hidden="true"
                      className="absolute end-1 top-1 rounded-full bg-primary px-2 font-semibold text-primary-foreground text-xs tabular-nums"
                    >
                      {quantity}
                    </span>
                  ) : null}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {otherCurrency > 0 ? (
        <p className="text-muted-foreground text-sm">
          {t("pos.products.otherCurrency", { count: otherCurrency, currency: other })}
        </p>
      ) : null}
      {lines.length > 0 ? (
        <ul
          aria-label={t("pos.cart.label")}
          className="flex flex-col divide-y divide-border rounded-xl border border-border"
          data-testid="pos-cart"
        >
          {lines.map(({ item, quantity }) => (
            <li key={item.id} className="flex items-center gap-2 px-3 py-1">
              <span className="min-w-0 flex-1 truncate">
                <span className="tabular-nums">{quantity} ×</span> {item.title}
              </span>
              <span className="text-sm tabular-nums">
                <Ltr>
                  {price(thousandthsOf(item.price) * BigInt(quantity))} {unit}
                </Ltr>
              </span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-11"
                aria-label={t("pos.cart.less", { title: item.title })}
                onClick={() => onChange(item.id, -1)}
              >
                <Minus aria-hidden="true" />
              </Button>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-11"
                aria-label={t("pos.cart.more", { title: item.title })}
                onClick={() => onChange(item.id, 1)}
              >
                <Plus aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
