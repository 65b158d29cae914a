import { Route, Switch } from "wouter";
import * as pages from "./lazy-pages";

/** The route table of spec section 2, in its order (/merchant is protected in lazy-pages); PRODUCT.md decision 1 gives /reports and /payments pages of their own. */
export function AppRouter() {
  return (
    <Switch>
      <Route path="/" component={pages.HomePage} />
      <Route path="/blog" component={pages.BlogPage} />
      <Route path="/blog/:slug" component={pages.BlogPostPage} />
      <Route path="/about" component={pages.AboutPage} />
      <Route path="/about-us" component={pages.AboutUsPage} />
      <Route path="/contact" component={pages.ContactPage} />
      <Route path="/privacy-policy" component={pages.PrivacyPolicyPage} />
      <Route path="/terms-of-service" component={pages.TermsOfServicePage} />
      <Route path="/legal-documents" component={pages.LegalDocumentsPage} />
      <Route path="/auth" component={pages.AuthPage} />
      <Route path="/forgot-password" component={pages.ForgotPasswordPage} />
      <Route path="/reset-password" component={pages.ResetPasswordPage} />
      <Route path="/profile" component={pages.ProfilePage} />
      <Route path="/merchant" component={pages.MerchantDashboardPage} />
      <Route path="/payment" component={pages.PaymentPage} />
      <Route path="/payment/:reference" component={pages.PaymentPage} />
      <Route path="/easy-payment" component={pages.EasyPaymentPage} />
      <Route path="/social-login-test" component={pages.SocialLoginTestPage} />
      <Route path="/pay/:paymentReference" component={pages.PayPage} />
      <Route path="/refund/:token" component={pages.RefundLinkPage} />
      <Route path="/buy-cpxtb" component={pages.BuyCpxtbPage} />
      <Route path="/buy-cpxtb/orders/:id" component={pages.BuyOrderPage} />
      <Route path="/reports" component={pages.ReportsPage} />
      <Route path="/payments" component={pages.PaymentHistoryPage} />
      <Route path="/webhooks" component={pages.WebhooksPage} />
      <Route path="/developers" component={pages.DevelopersPage} />
      <Route path="/audit-log" component={pages.AuditLogPage} />
      <Route path="/team" component={pages.TeamPage} />
      <Route path="/invitations/:token" component={pages.InvitationPage} />
      <Route path="/settings" component={pages.ProfilePage} />
      <Route path="/presentation" component={pages.PresentationPage} />
      <Route component={pages.NotFoundPage} />
    </Switch>
  );
}
