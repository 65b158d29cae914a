import type * as React from "react";
import { type LazyComponent, lazyComponent } from "@/lib/lazy-component";

export type PreloadablePage = LazyComponent;

const loadDataLayer = () => import("./data-layer");

/**
 * A lazy page that can be preloaded (`lazyComponent`): a page preloaded before the first render commits without
 * its Suspense fallback, and main.tsx relies on this to hydrate the server-rendered HTML of a page in one step
 * (decision 009). A page gets the server-data layer (TanStack Query, auth; decision 006), fetched in parallel with
 * its own chunk, unless it is a `shell` page that needs neither.
 */
function lazyPage(
  load: () => Promise<{ default: React.ComponentType }>,
  layer: "data" | "protected" | "shell" = "data",
): PreloadablePage {
  if (layer === "shell") return lazyComponent(load);
  return lazyComponent(() =>
    Promise.all([load(), loadDataLayer()]).then(([page, data]) => ({
      default:
        layer === "protected" ? data.withRequiredUser(page.default) : data.withDataProviders(page.default),
    })),
  );
}

// Every screen is its own chunk (spec section 2: all pages load lazily).
export const HomePage = lazyPage(() => import("./routes/home"), "shell");
export const BlogPage = lazyPage(() => import("./routes/blog"));
export const BlogPostPage = lazyPage(() => import("./routes/blog-post"));
export const AboutPage = lazyPage(() => import("./routes/about"));
export const AboutUsPage = lazyPage(() => import("./routes/about-us"));
export const ContactPage = lazyPage(() => import("./routes/contact"));
export const PrivacyPolicyPage = lazyPage(() => import("./routes/privacy-policy"));
export const TermsOfServicePage = lazyPage(() => import("./routes/terms-of-service"));
export const LegalDocumentsPage = lazyPage(() => import("./routes/legal-documents"));
export const AuthPage = lazyPage(() => import("./routes/auth"));
export const ForgotPasswordPage = lazyPage(() => import("./routes/forgot-password"));
export const ResetPasswordPage = lazyPage(() => import("./routes/reset-password"));
export const ProfilePage = lazyPage(() => import("./routes/profile"));
export const MerchantDashboardPage = lazyPage(() => import("./routes/merchant"), "protected");
export const PaymentPage = lazyPage(() => import("./routes/payment"));
export const EasyPaymentPage = lazyPage(() => import("./routes/easy-payment"));
export const SocialLoginTestPage = lazyPage(() => import("./routes/social-login-test"));
export const PayPage = lazyPage(() => import("./routes/pay"));
export const LinkPage = lazyPage(() => import("./routes/link"));
export const LinksPage = lazyPage(() => import("./routes/links"));
export const RefundLinkPage = lazyPage(() => import("./routes/refund"));
export const BuyCpxtbPage = lazyPage(() => import("./routes/buy-cpxtb"));
export const BuyOrderPage = lazyPage(() => import("./routes/buy-order"));
export const ReportsPage = lazyPage(() => import("./routes/reports"));
export const PaymentHistoryPage = lazyPage(() => import("./routes/payments"));
export const WebhooksPage = lazyPage(() => import("./routes/webhooks"));
export const DevelopersPage = lazyPage(() => import("./routes/developers"));
export const AuditLogPage = lazyPage(() => import("./routes/audit-log"));
export const TeamPage = lazyPage(() => import("./routes/team"));
export const InvitationPage = lazyPage(() => import("./routes/invitation"));
export const PresentationPage = lazyPage(() => import("./routes/presentation"));
export const PosPage = lazyPage(() => import("./routes/pos"));
export const NotFoundPage = lazyPage(() => import("./routes/not-found"), "shell");

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
