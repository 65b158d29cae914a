import { type ClientRoute, matchingClientRoute } from "@common/client-routes";
import { Route, Switch } from "wouter";
import * as pages from "./lazy-pages";

/**
 * The route table of spec section 2, in its order (/merchant is protected in lazy-pages); PRODUCT.md decision 1
 * gives /reports and /payments pages of their own. The server's copy (`CLIENT_ROUTES`) lists the same paths in the
 * same order (router.test.ts).
 */
export const ROUTES: readonly (readonly [ClientRoute, pages.PreloadablePage])[] = [
  ["/", pages.HomePage],
  ["/blog", pages.BlogPage],
  ["/blog/:slug", pages.BlogPostPage],
  ["/about", pages.AboutPage],
  ["/about-us", pages.AboutUsPage],
  ["/contact", pages.ContactPage],
  ["/privacy-policy", pages.PrivacyPolicyPage],
  ["/terms-of-service", pages.TermsOfServicePage],
  ["/legal-documents", pages.LegalDocumentsPage],
  ["/auth", pages.AuthPage],
  ["/forgot-password", pages.ForgotPasswordPage],
  ["/reset-password", pages.ResetPasswordPage],
  ["/profile", pages.ProfilePage],
  ["/merchant", pages.MerchantDashboardPage],
  ["/payment", pages.PaymentPage],
  ["/payment/:reference", pages.PaymentPage],
  ["/easy-payment", pages.EasyPaymentPage],
  ["/social-login-test", pages.SocialLoginTestPage],
  ["/pay/:paymentReference", pages.PayPage],
  ["/refund/:token", pages.RefundLinkPage],
  ["/buy-cpxtb", pages.BuyCpxtbPage],
  ["/buy-cpxtb/orders/:id", pages.BuyOrderPage],
  ["/reports", pages.ReportsPage],
  ["/payments", pages.PaymentHistoryPage],
  ["/webhooks", pages.WebhooksPage],
  ["/developers", pages.DevelopersPage],
  ["/audit-log", pages.AuditLogPage],
  ["/team", pages.TeamPage],
  ["/invitations/:token", pages.InvitationPage],
  ["/settings", pages.ProfilePage],
  ["/presentation", pages.PresentationPage],
  ["/pos", pages.PosPage],
  ["/l/:slug", pages.LinkPage],
  ["/links", pages.LinksPage],
];

export function AppRouter() {
  return (
    <Switch>
      {ROUTES.map(([path, page]) => (
        <Route key={path} path={path} component={page} />
      ))}
      <Route component={pages.NotFoundPage} />
    </Switch>
  );
}

/** The page the router shows for `path` (no query string): the not-found page when no route matches. */
export function pageFor(path: string): pages.PreloadablePage {
  const route = matchingClientRoute(path);
  return ROUTES.find(([candidate]) => candidate === route)?.[1] ?? pages.NotFoundPage;
}
