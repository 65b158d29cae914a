import { MANAGER_ROLES } from "@common/team.ts";
import { BookOpen, Code as CodeIcon, FileJson, FlaskConical } from "lucide-react";
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
import { Rich, useDocumentLanguage, useT } from "@/i18n/i18n";

/** On a development install (the embedded chain), what its keys are and where they work. */
function TestKeysNotice() {
  const t = useT();
  return (
    <section
      aria-labelledby="test-keys-title"
      data-testid="test-keys-notice"
      className="flex items-start gap-3 rounded-xl border border-primary/40 bg-primary/8 p-4"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="flex flex-col gap-1 text-sm">
        <h2 id="test-keys-title" className="font-semibold text-base">
          {t("developers.testKeys.title")}
        </h2>
        <p>
          <Rich
            id="developers.testKeys.text"
            values={{
              testPrefix: <Code>cpx_test_</Code>,
              livePrefix: <Code>cpx_live_</Code>,
            }}
          />
        </p>
      </div>
    </section>
  );
}

/** Code in a sentence: as written, left to right in every language. */
function Code({ children, className = "" }: { children: string; className?: string }) {
  return (
    <code dir="ltr" className={`font-mono ${className}`}>
      {children}
    </code>
  );
}

function ApiReferenceLinks({ kind = "live" }: { kind?: "test" | "live" }) {
  const t = useT();
  return (
    <section
      aria-labelledby="reference-title"
      className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 sm:p-6"
    >
      <h2 id="reference-title" className="font-semibold text-xl">
        {t("developers.reference.title")}
      </h2>
      <p className="text-muted-foreground text-sm">
        <Rich
          id="developers.reference.text"
          values={{
            create: <Code>POST /api/v1/payments</Code>,
            read: <Code>{"GET /api/v1/payments/{id}"}</Code>,
            header: <Code className="break-all">{`Authorization: Bearer cpx_${kind}_…`}</Code>,
          }}
        />
      </p>
      <div className="flex flex-wrap gap-2">
        {/* Server pages, not routes of this app: full page loads. */}
        <Button asChild variant="outline">
          <a href="/api/docs">
            <BookOpen aria-hidden="true" /> {t("developers.reference.title")}
          </a>
        </Button>
        <Button asChild variant="ghost">
          <a href="/api/openapi.json">
            <FileJson aria-hidden="true" /> {t("developers.reference.openapi")}
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
  const t = useT();
  // Staff may not list keys: only owners and admins ask (the list says which kind this install makes).
  const keys = useApiKeys(merchant.data ? mayUse(merchant.data.role, MANAGER_ROLES) : false);
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt
        reason={t("developers.page.noBusinessReason")}
        title={t("developers.common.noBusinessTitle")}
        action={t("developers.common.registerBusiness")}
      />
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
          title={t("developers.page.roleNotice")}
          detail={t("developers.common.yourRole", { role: merchant.data.role, business: merchant.data.name })}
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

/** /developers, in the reader's language (issue 37); code (paths, headers, snippets) stays as written. */
export default function DevelopersPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("developers.page.title")}
      icon={CodeIcon}
      width="wide"
      description={t("developers.page.description")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("developers.common.checkingSession")} />
      ) : user ? (
        <MerchantDevelopers />
      ) : (
        <SignInPrompt
          reason={t("developers.page.signInReason")}
          title={t("developers.common.signInTitle")}
          action={t("developers.common.signIn")}
        />
      )}
    </PageFrame>
  );
}
