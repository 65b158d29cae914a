import { LOCALE_NAMES, LOCALES } from "@common/locales";
import type { Merchant } from "@common/merchant";
import { BUSINESS_TYPES, PAGE_THEMES, type PageTheme } from "@common/merchant-values";
import { Monitor, Moon, Sun } from "lucide-react";
import * as React from "react";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";

const TYPE_LABELS: Record<(typeof BUSINESS_TYPES)[number], string> = {
  retail: "Retail shop",
  ecommerce: "Online shop",
  services: "Services",
  food: "Food & drink",
  digital: "Digital goods",
  nonprofit: "Non-profit",
  other: "Other",
};

const THEMES: Record<PageTheme, { label: string; hint: string; icon: typeof Sun }> = {
  auto: { label: "Auto", hint: "The payer's own theme", icon: Monitor },
  light: { label: "Light", hint: "Always light", icon: Sun },
  dark: { label: "Dark", hint: "Always dark", icon: Moon },
};

export type BusinessFieldValues = Pick<
  Merchant,
  | "name"
  | "businessType"
  | "contactEmail"
  | "website"
  | "description"
  | "logoUrl"
  | "brandColor"
  | "pageTheme"
  | "payLanguage"
  | "tipPresets"
>;

/** "10, 15 20%" → [10, 15, 20]; what is not a number stays in as NaN, for the schema to refuse. */
export function parseTipPresets(text: string): number[] {
  return text
    .split(/[\s,;%]+/)
    .filter((part) => part !== "")
    .map(Number);
}

/** Reads the fields below from their form: trimmed, empty optional fields as null. */
export function readBusinessFields(form: HTMLFormElement) {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "").trim() || null;
  return {
    name: text("name") ?? "",
    businessType: String(data.get("businessType")),
    contactEmail: text("contactEmail") ?? "",
    website: text("website"),
    description: text("description"),
    logoUrl: text("logoUrl"),
    brandColor: text("brandColor"),
    pageTheme: String(data.get("pageTheme") ?? "auto"),
    payLanguage: text("payLanguage"),
    tipPresets: parseTipPresets(String(data.get("tipPresets") ?? "")),
  };
}

const selectClass =
  "h-11 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-[3px] focus-visible:ring-ring/60";

/**
 * The business's details and its pay page appearance, shared by registration and editing. Uncontrolled inputs
 * (read with `readBusinessFields`), except the brand colour, whose text and picker follow each other.
 */
export function BusinessFields({
  defaults,
  errors,
  idPrefix = "",
}: {
  defaults?: Partial<BusinessFieldValues>;
  errors: Record<string, string>;
  /** Keeps ids unique when two forms are on one page. */
  idPrefix?: string;
}) {
  const [brand, setBrand] = React.useState(defaults?.brandColor ?? "");
  const validBrand = /^#[0-9a-fA-F]{6}$/.test(brand);
  return (
    <>
      <Field
        id={`${idPrefix}name`}
        name="name"
        label="Business name"
        required
        error={errors.name}
        autoComplete="organization"
        defaultValue={defaults?.name}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}businessType`}>Business type</Label>
        <select
          id={`${idPrefix}businessType`}
          name="businessType"
          className={selectClass}
          defaultValue={defaults?.businessType ?? "retail"}
        >
          {BUSINESS_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </div>
      <Field
        id={`${idPrefix}contactEmail`}
        name="contactEmail"
        type="email"
        label="Contact email"
        required
        error={errors.contactEmail}
        defaultValue={defaults?.contactEmail}
      />
      <Field
        id={`${idPrefix}website`}
        name="website"
        type="url"
        label="Website (optional)"
        placeholder="https://"
        error={errors.website}
        defaultValue={defaults?.website ?? ""}
      />
      <Field
        id={`${idPrefix}tipPresets`}
        name="tipPresets"
        inputMode="numeric"
        label="Tips at the counter, in % (optional)"
        placeholder="e.g. 10, 15, 20"
        hint="Up to 4 percentages the counter offers the customer. Empty: no tips."
        error={errors.tipPresets}
        defaultValue={defaults?.tipPresets?.join(", ") ?? ""}
      />
      <Field
        id={`${idPrefix}logoUrl`}
        name="logoUrl"
        type="url"
        label="Logo URL (optional)"
        placeholder="https://"
        error={errors.logoUrl}
        defaultValue={defaults?.logoUrl ?? ""}
        className="sm:col-span-2"
      />
      <div className="flex flex-col gap-2 sm:col-span-2">
        <Label htmlFor={`${idPrefix}description`}>Description (optional)</Label>
        <Textarea
          id={`${idPrefix}description`}
          name="description"
          rows={3}
          maxLength={1000}
          defaultValue={defaults?.description ?? ""}
        />
      </div>
      <fieldset className="flex min-w-0 flex-col gap-3 rounded-lg border border-border p-3 sm:col-span-2">
        <legend className="px-1 font-medium text-sm">Payment page appearance</legend>
        <div className="flex items-start gap-2">
          <Field
            id={`${idPrefix}brandColor`}
            name="brandColor"
            label="Brand colour (optional)"
            placeholder="#1a7f5a"
            maxLength={7}
            spellCheck={false}
            autoComplete="off"
            value={brand}
            onChange={(event) => setBrand(event.target.value)}
            error={errors.brandColor}
            hint="Buttons and accents of your payment page. Leave empty for the CPXTB blue."
            className="flex-1"
          />
          <input
            type="color"
            aria-label="Pick the brand colour"
            value={validBrand ? brand.toLowerCase() : "#2f5bd3"}
            onChange={(event) => setBrand(event.target.value)}
            // Level with the text input: below its label (one line of text-sm plus the field's gap).
            className="mt-[1.375rem] h-11 w-14 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1"
          />
        </div>
        <div role="radiogroup" aria-label="Theme of the payment page" className="grid grid-cols-3 gap-2">
          {PAGE_THEMES.map((theme) => {
            const info = THEMES[theme];
            return (
              <label
                key={theme}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-input px-3 py-2 text-sm has-checked:border-primary has-checked:bg-primary/10 has-focus-visible:ring-[3px] has-focus-visible:ring-ring/60"
              >
                <input
                  type="radio"
                  name="pageTheme"
                  value={theme}
                  defaultChecked={(defaults?.pageTheme ?? "auto") === theme}
                  className="sr-only"
                />
                <info.icon aria-hidden="true" className="size-4 shrink-0" />
                <span className="flex flex-col">
                  <span className="font-medium">{info.label}</span>
                  <span className="hidden text-muted-foreground text-xs sm:block">{info.hint}</span>
                </span>
              </label>
            );
          })}
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${idPrefix}payLanguage`}>Language of the payment page</Label>
          <select
            id={`${idPrefix}payLanguage`}
            name="payLanguage"
            className={selectClass}
            defaultValue={defaults?.payLanguage ?? ""}
            aria-describedby={`${idPrefix}payLanguage-hint`}
          >
            <option value="">The payer's browser language</option>
            {LOCALES.map((locale) => (
              <option key={locale} value={locale} lang={locale}>
                {LOCALE_NAMES[locale]}
              </option>
            ))}
          </select>
          <p id={`${idPrefix}payLanguage-hint`} className="text-muted-foreground text-sm">
            The language your payment pages open in. Payers can still pick another.
          </p>
        </div>
      </fieldset>
    </>
  );
}
