import type { MessageArea } from "@common/locales";
import type * as React from "react";
import { type LazyComponent, lazyComponent } from "@/lib/lazy-component";

/** A page, and the message areas whose words it shows in its reader's language (decision 038; none: English). */
export type PreloadablePage = LazyComponent & { areas: readonly MessageArea[] };

const loadDataLayer = () => import("./data-layer");

/**
 * A lazy page that can be preloaded (`lazyComponent`): a page preloaded before the first render commits without
 * its Suspense fallback, and main.tsx relies on this to hydrate the server-rendered HTML of a page in one step
 * (decision 009). A page gets the server-data layer (TanStack Query, auth; decision 006), fetched in parallel with
 * its own chunk, unless it is a `shell` page that needs neither. A translated page also gets its `areas`' words in
 * the reader's language, loaded beside its chunk, so its first render (and hydration) is in that language; the
 * runtime that loads them is imported only then, never by the shell.
 */
function lazyPage(
  load: () => Promise<{ default: React.ComponentType }>,
  layer: "data" | "protected" | "shell" = "data",
  areas: readonly MessageArea[] = [],
): PreloadablePage {
  const loadWords = () =>
    areas.length === 0 ? undefined : import("@/i18n/i18n").then((i18n) => i18n.prepareMessages(areas));
  if (layer === "shell")
    return Object.assign(
      lazyComponent(
        areas.length === 0 ? load : () => Promise.all([load(), loadWords()]).then(([page]) => page),
      ),
      { areas },
    );
  const page = lazyComponent(() =>
    Promise.all([load(), loadDataLayer(), loadWords()]).then(async ([page, data]) => {
      // The one-time costs its modules registered (lib/warm-up.ts), each in a task of its own before it renders.
      await data.runWarmUps();
      return {
        default:
          layer === "protected" ? data.withRequiredUser(page.default) : data.withDataProviders(page.default),
      };
    }),
  );
  return Object.assign(page, { areas });
}

/**
 * The payer's pages: the checkout and the wallet-less way to pay it. A checkout has no app frame (app-layout.tsx);
 * a page that is shown in the frame names `shell` too: the frame's words, in the page's language (the side menu,
 * the header, the footer: i18n/shell-words.tsx).
 */
const CHECKOUT_AREAS: readonly MessageArea[] = ["pay", "wallet"];
/** /payment's lookup form, /easy-payment without a payment and a refund's link: checkout words in the frame. */
const FRAMED_CHECKOUT_AREAS: readonly MessageArea[] = [...CHECKOUT_AREAS, "shell"];
/** The content pages' English-only notice, and the frame around them in the same language (the reader's). */
const CONTENT_AREAS: readonly MessageArea[] = ["content", "shell"];
/** Buying CPXTB and its orders (their copy buttons speak the checkout's words); the claim card's words are in "buy". */
const BUY_AREAS: readonly MessageArea[] = ["buy", "wallet", "pay", "shell"];
/**
 * The counter: its own words, the checkout's where its customer screen says the same (statuses, errors), and the
 * business's loading and refused states of "merchant".
 */
const POS_AREAS: readonly MessageArea[] = ["pos", "pay", "merchant"];
/**
 * The team, an invitation and the audit log: their own words, the checkout's generic errors (network, server), and
 * the business's loading and refused states of "merchant" (`merchantQueryState`).
 */
const TEAM_AREAS: readonly MessageArea[] = ["team", "pay", "merchant", "shell"];
/**
 * The merchant's reports and payment history: their own words, the checkout's status names and errors, and the
 * payment's detail panel (and the business's loading states) of "merchant".
 */
const REPORTS_AREAS: readonly MessageArea[] = ["reports", "pay", "merchant", "shell"];
/** The merchant dashboard: its own words, the payment history's of "reports", the checkout's statuses and errors. */
const MERCHANT_AREAS: readonly MessageArea[] = ["merchant", "reports", "pay", "shell"];
/**
 * Signing in and the account: their own words, the social sign-in buttons', the signed-in social account card's and
 * the profile's managed wallet's of the wallet-less path ("wallet"), and the checkout's generic errors, language
 * menu and copy button ("pay").
 */
const ACCOUNT_AREAS: readonly MessageArea[] = ["account", "wallet", "pay", "shell"];
/**
 * API keys, the pay button, webhooks and the payment links list: their own words, the checkout's copy and errors,
 * and the business's loading and refused states of "merchant".
 */
const DEVELOPERS_AREAS: readonly MessageArea[] = ["developers", "pay", "merchant", "shell"];

// Every screen is its own chunk (spec section 2: all pages load lazily).
export const HomePage = lazyPage(() => import("./routes/home"), "shell");
export const BlogPage = lazyPage(() => import("./routes/blog"), "data", CONTENT_AREAS);
export const BlogPostPage = lazyPage(() => import("./routes/blog-post"), "data", CONTENT_AREAS);
export const AboutPage = lazyPage(() => import("./routes/about"));
export const AboutUsPage = lazyPage(() => import("./routes/about-us"));
export const ContactPage = lazyPage(() => import("./routes/contact"));
export const PrivacyPolicyPage = lazyPage(() => import("./routes/privacy-policy"), "data", CONTENT_AREAS);
export const TermsOfServicePage = lazyPage(() => import("./routes/terms-of-service"), "data", CONTENT_AREAS);
export const LegalDocumentsPage = lazyPage(() => import("./routes/legal-documents"), "data", CONTENT_AREAS);
export const AuthPage = lazyPage(() => import("./routes/auth"), "data", ACCOUNT_AREAS);
export const ForgotPasswordPage = lazyPage(() => import("./routes/forgot-password"), "data", ACCOUNT_AREAS);
export const ResetPasswordPage = lazyPage(() => import("./routes/reset-password"), "data", ACCOUNT_AREAS);
export const ProfilePage = lazyPage(() => import("./routes/profile"), "data", ACCOUNT_AREAS);
export const MerchantDashboardPage = lazyPage(() => import("./routes/merchant"), "protected", MERCHANT_AREAS);
export const PaymentPage = lazyPage(() => import("./routes/payment"), "data", FRAMED_CHECKOUT_AREAS);
export const EasyPaymentPage = lazyPage(() => import("./routes/easy-payment"), "data", FRAMED_CHECKOUT_AREAS);
// In the reader's language as the account screens are: its words, its card, the sign-in buttons, the session's toasts.
export const SocialLoginTestPage = lazyPage(
  () => import("./routes/social-login-test"),
  "data",
  ACCOUNT_AREAS,
);
export const PayPage = lazyPage(() => import("./routes/pay"), "data", CHECKOUT_AREAS);
export const LinkPage = lazyPage(() => import("./routes/link"), "data", CHECKOUT_AREAS);
export const LinksPage = lazyPage(() => import("./routes/links"), "data", DEVELOPERS_AREAS);
export const RefundLinkPage = lazyPage(() => import("./routes/refund"), "data", FRAMED_CHECKOUT_AREAS);
export const BuyCpxtbPage = lazyPage(() => import("./routes/buy-cpxtb"), "data", BUY_AREAS);
export const BuyOrderPage = lazyPage(() => import("./routes/buy-order"), "data", BUY_AREAS);
export const ReportsPage = lazyPage(() => import("./routes/reports"), "data", REPORTS_AREAS);
export const PaymentHistoryPage = lazyPage(() => import("./routes/payments"), "data", REPORTS_AREAS);
export const WebhooksPage = lazyPage(() => import("./routes/webhooks"), "data", DEVELOPERS_AREAS);
export const DevelopersPage = lazyPage(() => import("./routes/developers"), "data", DEVELOPERS_AREAS);
export const AuditLogPage = lazyPage(() => import("./routes/audit-log"), "data", TEAM_AREAS);
export const TeamPage = lazyPage(() => import("./routes/team"), "data", TEAM_AREAS);
export const InvitationPage = lazyPage(() => import("./routes/invitation"), "data", TEAM_AREAS);
export const PresentationPage = lazyPage(() => import("./routes/presentation"));
export const PosPage = lazyPage(() => import("./routes/pos"), "data", POS_AREAS);
/** In the reader's language: its words are the frame's (area `site`, with `shell`). */
export const NotFoundPage = lazyPage(() => import("./routes/not-found"), "shell", ["shell"]);

/**
 * The page of a path whose HTML the server renders (decision 009), or null. main.tsx loads it before the first
 * render and entry-server.tsx before rendering, so neither shows the page's loading state.
 */
export function prerenderedPageFor(path: string): PreloadablePage | null {
  if (path === "/") return HomePage;
  if (path === "/blog") return BlogPage;
  if (/^\/blog\/[^/]+$/.test(path)) return BlogPostPage;
  // The payer's checkout, opened from a QR code on a phone (decision 017); the server renders it only with a ref.
  if (/^\/pay\/[^/]+\/?$/.test(path)) return PayPage;
  if (/^\/easy-payment\/?$/.test(path)) return EasyPaymentPage;
  // A payment link's page (issue 35), shared like the pay page.
  if (/^\/l\/[^/]+\/?$/.test(path)) return LinkPage;
  // The dashboard's frame, for a signed-in request (decision 025).
  if (/^\/merchant\/?$/.test(path)) return MerchantDashboardPage;
  return null;
}
