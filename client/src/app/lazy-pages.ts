import * as React from "react";

type PageModule = { default: React.ComponentType };
type PreloadablePage = React.LazyExoticComponent<React.ComponentType> & {
  preload: () => Promise<PageModule>;
};

const loadDataLayer = () => import("./data-layer");

/**
 * React.lazy plus a `preload()` that starts the same import early (the module system caches it). A page gets the
 * server-data layer (TanStack Query, auth; decision 006), fetched in parallel with its own chunk, unless it is a
 * `shell` page that needs neither: those render without waiting for it.
 */
function lazyPage(
  load: () => Promise<PageModule>,
  layer: "data" | "protected" | "shell" = "data",
): PreloadablePage {
  const loadWithLayer =
    layer === "shell"
      ? load
      : () =>
          Promise.all([load(), loadDataLayer()]).then(([page, data]) => ({
            default:
              layer === "protected"
                ? data.withRequiredUser(page.default)
                : data.withDataProviders(page.default),
          }));
  return Object.assign(React.lazy(loadWithLayer), { preload: loadWithLayer });
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
export const BuyCpxtbPage = lazyPage(() => import("./routes/buy-cpxtb"));
export const ReportsPage = lazyPage(() => import("./routes/reports"));
export const PaymentHistoryPage = lazyPage(() => import("./routes/payments"));
export const PresentationPage = lazyPage(() => import("./routes/presentation"));
export const NotFoundPage = lazyPage(() => import("./routes/not-found"), "shell");
