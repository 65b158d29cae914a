import { MANAGER_ROLES } from "@common/team.ts";
import { BookOpen, Code, FileJson, FlaskConical } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { useApiKeys } from "@/features/developers/api/get-api-keys";
import { ApiKeysList } from "@/features/developers/components/api-keys-list";
import { CreateApiKeyForm } from "@/features/developers/components/create-api-key-form";
import { PayButtonSection } from "@/features/developers/components/pay-button-section";
import { useLinks } from "@/features/links/api/links";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { NoBusinessPrompt } from "@/features/payments/dashboard/components/no-business-prompt";
import { RoleNotice } from "@/features/team/components/role-notice";
import { mayUse } from "@/features/team/role-access";

/** On a development install (the embedded chain), what its keys are and where they work. */
function TestKeysNotice() {
  return (
    <section
      aria-labelledby="test-keys-title"
      data-testid="test-keys-notice"
      className="flex items-start gap-3 rounded-xl border border-primary/40 bg-primary/8 p-4"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="flex flex-col gap-1 text-sm">
        <h2 id="test-keys-title" className="font-semibold text-base">
          These are test keys
        </h2>
        <p>
          This is a development install on its own test chain: its keys start with{" "}
          <code className="font-mono">cpx_test_</code>, create payments in test tokens and work only on this
          install. A live deployment makes <code className="font-mono">cpx_live_</code> keys, and neither kind
          works on the other.
        </p>
      </div>
    </section>
  );
}

function ApiReferenceLinks({ kind = "live" }: { kind?: "test" | "live" }) {
  return (
    <section
      aria-labelledby="reference-title"
      className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 sm:p-6"
    >
      <h2 id="reference-title" className="font-semibold text-xl">
        API reference
      </h2>
      <p className="text-muted-foreground text-sm">
        Create payments with <code className="font-mono">POST /api/v1/payments</code>, read them with{" "}
        <code className="font-mono">GET /api/v1/payments/{"{id}"}</code> and list them. Send the key as{" "}
        <code className="break-all font-mono">Authorization: Bearer cpx_{kind}_…</code>, from your server
        only.
      </p>
      <div className="flex flex-wrap gap-2">
        {/* Server pages, not routes of this app: full page loads. */}
        <Button asChild variant="outline">
          <a href="/api/docs">
            <BookOpen aria-hidden="true" /> API reference
          </a>
        </Button>
        <Button asChild variant="ghost">
          <a href="/api/openapi.json">
            <FileJson aria-hidden="true" /> OpenAPI document
          </a>
        </Button>
      </div>
    </section>
  );
}

/** The pay button's section with the business's payment links to choose from (their snippet and preview). */
function PayButtonForLinks() {
  const links = useLinks();
  return <PayButtonSection links={links.data?.items ?? []} />;
}

function MerchantDevelopers() {
  const merchant = useMerchant();
  // Staff may not list keys: only owners and admins ask (the list says which kind this install makes).
  const keys = useApiKeys(merchant.data ? mayUse(merchant.data.role, MANAGER_ROLES) : false);
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt reason="API keys create payments for your business. Register it on the merchant dashboard first." />
    );
  }
  if (!mayUse(merchant.data.role, MANAGER_ROLES)) {
    return (
      <div className="flex flex-col gap-6">
        <RoleNotice
          roles={MANAGER_ROLES}
          what="create and manage API keys"
          role={merchant.data.role}
          business={merchant.data.name}
        />
        <ApiReferenceLinks />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {keys.data?.kind === "test" ? <TestKeysNotice /> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)] lg:items-start">
        <div className="flex flex-col gap-6">
          <CreateApiKeyForm />
          <ApiReferenceLinks kind={keys.data?.kind} />
        </div>
        <div className="flex flex-col gap-6">
          <ApiKeysList />
          <PayButtonForLinks />
        </div>
      </div>
    </div>
  );
}

export default function DevelopersPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Developers"
      icon={Code}
      width="wide"
      description="API keys let your shop's server create payments and follow them without the dashboard."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <MerchantDevelopers />
      ) : (
        <SignInPrompt reason="Sign in to manage your business's API keys." />
      )}
    </PageFrame>
  );
}
