import { LOCALE_NAMES, LOCALES } from "@common/locales";
import type { Merchant } from "@common/merchant";
import { BUSINESS_TYPES, PAGE_THEMES, type PageTheme } from "@common/merchant-values";
import { Monitor, Moon, Sun } from "lucide-react";
import * as React from "react";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { useT } from "@/i18n/i18n";

/** The business types' names: ids of the "merchant" area. */
const TYPE_LABELS: Record<(typeof BUSINESS_TYPES)[number], string> = {
  retail: "merchant.business.type.retail",
  ecommerce: "merchant.business.type.ecommerce",
  services: "merchant.business.type.services",
  food: "merchant.business.type.food",
  digital: "merchant.business.type.digital",
  nonprofit: "merchant.business.type.nonprofit",
  other: "merchant.business.type.other",
};

/** The pay page's themes: their names and hints are ids of the "merchant" area. */
const THEMES: Record<PageTheme, { label: string; hint: string; icon: typeof Sun }> = {
  auto: { label: "merchant.business.theme.auto", hint: "merchant.business.theme.autoHint", icon: Monitor },
  light: { label: "merchant.business.theme.light", hint: "merchant.business.theme.lightHint", icon: Sun },
  dark: { label: "merchant.business.theme.dark", hint: "merchant.business.theme.darkHint", icon: Moon },
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

/** A native select in the fields' look (the business form's and the payment request's). */
export const selectClass =
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
  const t = useT();
  const validBrand = /^#[0-9a-fA-F]{6}$/.test(brand);
  return (
    <>
      <Field
        id={`${idPrefix}name`}
        name="name"
        label={t("merchant.business.name")}
        required
        error={errors.name}
        autoComplete="organization"
        defaultValue={defaults?.name}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}businessType`}>{t("merchant.business.typeLabel")}</Label>
        <select
          id={`${idPrefix}businessType`}
          name="businessType"
          className={selectClass}
          defaultValue={defaults?.businessType ?? "retail"}
        >
          {BUSINESS_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(TYPE_LABELS[type])}
            </option>
          ))}
        </select>
      </div>
      <Field
        id={`${idPrefix}contactEmail`}
        name="contactEmail"
        dir="ltr"
        type="email"
        label={t("merchant.business.contactEmail")}
        required
        error={errors.contactEmail}
        defaultValue={defaults?.contactEmail}
      />
      <Field
        id={`${idPrefix}website`}
        name="website"
        dir="ltr"
        type="url"
        label={t("merchant.business.website")}
        placeholder="https://"
        error={errors.website}
        defaultValue={defaults?.website ?? ""}
      />
      <Field
        id={`${idPrefix}tipPresets`}
        name="tipPresets"
        inputMode="numeric"
        label={t("merchant.business.tips")}
        placeholder={t("merchant.business.tipsPlaceholder")}
        hint={t("merchant.business.tipsHint")}
        error={errors.tipPresets}
        defaultValue={defaults?.tipPresets?.join(", ") ?? ""}
      />
      <Field
        id={`${idPrefix}logoUrl`}
        name="logoUrl"
        dir="ltr"
        type="url"
        label={t("merchant.business.logoUrl")}
        placeholder="https://"
        error={errors.logoUrl}
        defaultValue={defaults?.logoUrl ?? ""}
        className="sm:col-span-2"
      />
      <div className="flex flex-col gap-2 sm:col-span-2">
        <Label htmlFor={`${idPrefix}description`}>{t("merchant.business.description")}</Label>
        <Textarea
          id={`${idPrefix}description`}
          name="description"
          rows={3}
          maxLength={1000}
          defaultValue={defaults?.description ?? ""}
        />
      </div>
      <fieldset className="flex min-w-0 flex-col gap-3 rounded-lg border border-border p-3 sm:col-span-2">
        <legend className="px-1 font-medium text-sm">{t("merchant.business.appearance")}</legend>
        <div className="flex items-start gap-2">
          <Field
            id={`${idPrefix}brandColor`}
            name="brandColor"
            dir="ltr"
            label={t("merchant.business.brandColor")}
            placeholder="#1a7f5a"
            maxLength={7}
            spellCheck={false}
            autoComplete="off"
            value={brand}
            onChange={(event) => setBrand(event.target.value)}
            error={errors.brandColor}
            hint={t("merchant.business.brandColorHint")}
            className="flex-1"
          />
          <input
            type="color"
            aria-label={t("merchant.business.pickColor")}
            value={validBrand ? brand.toLowerCase() : "#2f5bd3"}
            onChange={(event) => setBrand(event.target.value)}
            // Level with the text input: below its label (one line of text-sm plus the field's gap).
            className="mt-[1.375rem] h-11 w-14 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1"
          />
        </div>
        <div
          role="radiogroup"
          aria-label={t("merchant.business.themeLabel")}
          className="grid grid-cols-3 gap-2"
        >
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
                  <span className="font-medium">{t(info.label)}</span>
                  <span className="hidden text-muted-foreground text-xs sm:block">{t(info.hint)}</span>
                </span>
              </label>
            );
          })}
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${idPrefix}payLanguage`}>{t("merchant.business.payLanguage")}</Label>
          <select
            id={`${idPrefix}payLanguage`}
            name="payLanguage"
            className={selectClass}
            defaultValue={defaults?.payLanguage ?? ""}
            aria-describedby={`${idPrefix}payLanguage-hint`}
          >
            <option value="">{t("merchant.business.payLanguageBrowser")}</option>
            {LOCALES.map((locale) => (
              <option key={locale} value={locale} lang={locale}>
                {LOCALE_NAMES[locale]}
              </option>
            ))}
          </select>
          <p id={`${idPrefix}payLanguage-hint`} className="text-muted-foreground text-sm">
            {t("merchant.business.payLanguageHint")}
          </p>
        </div>
      </fieldset>
    </>
  );
}
