import { API_KEY_SCOPES, type ApiKeyScope, type CreatedApiKey, createApiKeyRequest } from "@common/api-keys";
import { KeyRound, Plus } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { useT } from "@/i18n/i18n";
import { useCreateApiKey } from "../api/create-api-key";
import { developersErrorText, schemaText } from "../developers-error-text";
import { NewKeySecret } from "./new-key-secret";

/** Each permission's name and what it allows (message ids; the scope itself is shown as written). */
export const SCOPE_TEXT: Record<ApiKeyScope, { label: string; hint: string }> = {
  "payments:read": { label: "developers.scope.read", hint: "developers.scope.readHint" },
  "payments:write": { label: "developers.scope.write", hint: "developers.scope.writeHint" },
};

export function CreateApiKeyForm() {
  const create = useCreateApiKey();
  const t = useT();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [created, setCreated] = React.useState<CreatedApiKey | null>(null);
  const formRef = React.useRef<HTMLFormElement>(null);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = createApiKeyRequest.safeParse({
      name: String(form.get("name") ?? ""),
      scopes: form.getAll("scopes").map(String),
    });
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), schemaText(i.message)])),
      );
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (key) => {
        setCreated(key);
        formRef.current?.reset();
      },
    });
  };

  return (
    <section
      aria-labelledby="create-key-title"
      className="rounded-xl border border-border bg-card p-4 sm:p-6"
    >
      <h2 id="create-key-title" className="flex items-center gap-2 font-semibold text-xl">
        <KeyRound className="size-5 text-primary" aria-hidden="true" /> {t("developers.create.title")}
      </h2>
      <p className="mt-1 text-muted-foreground text-sm">{t("developers.create.intro")}</p>
      {created ? (
        <NewKeySecret apiKey={created} onDone={() => setCreated(null)} />
      ) : (
        <form ref={formRef} onSubmit={submit} noValidate className="mt-4 flex flex-col gap-4">
          <Field
            name="name"
            label={t("developers.create.name")}
            placeholder={t("developers.create.namePlaceholder")}
            maxLength={60}
            autoComplete="off"
            required
            error={errors.name}
          />
          <fieldset
            className="flex flex-col gap-2"
            aria-describedby={errors.scopes ? "scopes-error" : undefined}
          >
            <legend className="mb-2 font-medium text-sm">{t("developers.create.permissions")}</legend>
            {API_KEY_SCOPES.map((scope) => (
              <label
                key={scope}
                className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md border border-border p-3 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/60"
              >
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  defaultChecked
                  className="mt-0.5 size-5 shrink-0 accent-primary"
                />
                <span className="flex flex-col">
                  <span className="font-medium text-sm">
                    {t(SCOPE_TEXT[scope].label)}{" "}
                    <code dir="ltr" className="font-mono text-muted-foreground text-xs">
                      {scope}
                    </code>
                  </span>
                  <span className="text-muted-foreground text-sm">{t(SCOPE_TEXT[scope].hint)}</span>
                </span>
              </label>
            ))}
            {errors.scopes ? (
              <p id="scopes-error" role="alert" className="font-medium text-destructive text-sm">
                {errors.scopes}
              </p>
            ) : null}
          </fieldset>
          {create.isError ? (
            <p role="alert" className="font-medium text-destructive-emphasis text-sm">
              {t("developers.create.failed", { reason: developersErrorText(create.error) })}
            </p>
          ) : null}
          <Button type="submit" disabled={create.isPending} className="self-start">
            {create.isPending ? (
              <Spinner size="sm" label={t("developers.busy.creating")} />
            ) : (
              <Plus aria-hidden="true" />
            )}{" "}
            {t("developers.create.submit")}
          </Button>
        </form>
      )}
    </section>
  );
}
