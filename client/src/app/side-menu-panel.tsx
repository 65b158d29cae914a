import { directionOf } from "@common/locales";
import { useQuery } from "@tanstack/react-query";
import {
  ChartColumn,
  Code,
  Coins,
  FileText,
  History,
  House,
  Info,
  Link2,
  LogIn,
  LogOut,
  type LucideIcon,
  Mail,
  Moon,
  Newspaper,
  Presentation,
  Scale,
  ScrollText,
  Settings,
  Shield,
  Store,
  Sun,
  UserRound,
  Users,
  Wallet,
  Webhook,
} from "lucide-react";
import type * as React from "react";
import { Link, useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { useAuth } from "@/features/auth/auth-provider";
import { merchantQueryOptions } from "@/features/payments/dashboard/api/get-merchant";
import { managedWalletQueryOptions } from "@/features/social/api/social";
import { useTheme } from "@/features/theme/theme-provider";
import { type SiteId, useSiteT } from "@/i18n/site-words";
import { cn } from "@/lib/utils";

interface MenuLink {
  href: string;
  /** Its words' id (catalog area `site`, in the shell's language). */
  label: SiteId;
  icon: LucideIcon;
  /** The path it is "current" on, when `href` carries a query. */
  path?: string;
}

// Spec section 2: these links, these labels, this order.
export const MAIN_LINKS: MenuLink[] = [
  { href: "/", label: "site.menu.home", icon: House },
  { href: "/merchant", label: "site.menu.merchant", icon: Store },
  { href: "/buy-cpxtb", label: "site.menu.buy", icon: Coins },
  { href: "/payments", label: "site.menu.payments", icon: History },
  { href: "/reports", label: "site.menu.reports", icon: ChartColumn },
  { href: "/webhooks", label: "site.menu.webhooks", icon: Webhook },
  { href: "/developers", label: "site.menu.developers", icon: Code },
  { href: "/audit-log", label: "site.menu.auditLog", icon: ScrollText },
  { href: "/settings", label: "site.menu.settings", icon: Settings },
  { href: "/blog", label: "site.menu.blog", icon: Newspaper },
  { href: "/contact", label: "site.menu.contact", icon: Mail },
  { href: "/presentation", label: "site.menu.presentation", icon: Presentation },
];

/** What a staff member cannot use (decision 021): the menu does not offer it; the server refuses it anyway. */
const NOT_FOR_STAFF = new Set(["/webhooks", "/developers", "/audit-log"]);
const TEAM_LINK: MenuLink = { href: "/team", label: "site.menu.team", icon: Users };
const LINKS_LINK: MenuLink = { href: "/links", label: "site.menu.links", icon: Link2 };

/** The main links for the signed-in member's role in the business they act for. */
export function linksForRole(role: "owner" | "admin" | "staff" | undefined): MenuLink[] {
  if (role === "staff") return MAIN_LINKS.filter((link) => !NOT_FOR_STAFF.has(link.href));
  if (role !== "owner" && role !== "admin") return MAIN_LINKS;
  const at = MAIN_LINKS.findIndex((link) => link.href === "/audit-log") + 1;
  const history = MAIN_LINKS.findIndex((link) => link.href === "/payments") + 1;
  return [
    ...MAIN_LINKS.slice(0, history),
    LINKS_LINK,
    ...MAIN_LINKS.slice(history, at),
    TEAM_LINK,
    ...MAIN_LINKS.slice(at),
  ];
}

/**
 * A payer-only account (signed in, no business: typically a social sign-in that pays from its managed wallet) is
 * offered payer things: its wallet and the payments it made (on the profile), buying CPXTB for that wallet, and
 * registering a business, which then brings the merchant's tools. The server refuses those tools anyway.
 */
export function payerLinks(hasManagedWallet: boolean): MenuLink[] {
  const links: MenuLink[] = [
    { href: "/", label: "site.menu.home", icon: House },
    ...(hasManagedWallet ? [{ href: "/profile", label: "site.menu.myWallet", icon: Wallet } as const] : []),
    hasManagedWallet
      ? { href: "/buy-cpxtb?to=managed", path: "/buy-cpxtb", label: "site.menu.buy", icon: Coins }
      : { href: "/buy-cpxtb", label: "site.menu.buy", icon: Coins },
    { href: "/merchant", label: "site.menu.registerBusiness", icon: Store },
    { href: "/blog", label: "site.menu.blog", icon: Newspaper },
    { href: "/contact", label: "site.menu.contact", icon: Mail },
    { href: "/presentation", label: "site.menu.presentation", icon: Presentation },
  ];
  return links;
}

/** While it is not known yet whether the account has a business: the links everyone has. */
const COMMON_LINKS = new Set(["/", "/buy-cpxtb", "/blog", "/contact", "/presentation"]);

export const LEGAL_LINKS: MenuLink[] = [
  { href: "/about-us", label: "site.menu.aboutUs", icon: Info },
  { href: "/privacy-policy", label: "site.menu.privacy", icon: Shield },
  { href: "/terms-of-service", label: "site.menu.terms", icon: FileText },
  { href: "/legal-documents", label: "site.menu.legalDocuments", icon: Scale },
];

const itemClass =
  "flex min-h-11 w-full items-center gap-3 rounded-md px-3 text-sm font-medium outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60";

function MenuItemLink({
  link,
  current,
  onNavigate,
}: {
  link: MenuLink;
  current: boolean;
  onNavigate: () => void;
}) {
  const { t } = useSiteT();
  const Icon = link.icon;
  return (
    <li>
      <Link
        href={link.href}
        data-menu-href={link.path ?? link.href}
        onClick={onNavigate}
        aria-current={current ? "page" : undefined}
        className={cn(
          itemClass,
          current && "bg-primary/12 text-primary hover:bg-primary/15 hover:text-primary",
        )}
      >
        <Icon className="size-4 shrink-0" aria-hidden="true" />
        {t(link.label)}
      </Link>
    </li>
  );
}

function MenuGroup({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-1 border-border border-t pt-3"
      data-menu-group={id}
    >
      <h2 id={id} className="px-3 pb-1 font-semibold text-muted-foreground text-xs uppercase tracking-wider">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The slide-out menu itself, loaded on first open (or in idle time) to keep the entry chunk small. */
export default function SideMenuPanel({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button lives outside the lazy panel, so Radix cannot find it as the dialog trigger. */
  returnFocusTo: React.RefObject<HTMLButtonElement | null>;
}) {
  const [location, navigate] = useLocation();
  const { t, locale } = useSiteT();
  const { theme, setTheme } = useTheme();
  const { user, logoutMutation } = useAuth();
  const merchant = useQuery({ ...merchantQueryOptions(), enabled: Boolean(user) && open });
  const payerOnly = Boolean(user) && merchant.data === null;
  const wallet = useQuery({ ...managedWalletQueryOptions(), enabled: payerOnly && open, retry: false });
  const links = !user
    ? MAIN_LINKS
    : merchant.isPending
      ? MAIN_LINKS.filter((link) => COMMON_LINKS.has(link.href))
      : payerOnly
        ? payerLinks(Boolean(wallet.data))
        : linksForRole(merchant.data?.role);
  const close = () => onOpenChange(false);

  const signOut = () =>
    logoutMutation.mutate(
      { signedOut: t("site.menu.signedOut"), signedOutText: t("site.menu.signedOutText") },
      {
        onSuccess: () => {
          onOpenChange(false);
          navigate("/");
        },
      },
    );

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      {/* From the reader's start side: the left (spec section 2), the right in a right-to-left language. */}
      <SheetContent
        side={directionOf(locale) === "rtl" ? "right" : "left"}
        lang={locale}
        dir={directionOf(locale)}
        closeLabel={t("site.menu.close")}
        className="w-[300px] sm:w-80"
        data-testid="side-menu"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <SheetHeader className="border-border border-b">
          <SheetTitle className="flex items-center gap-2">
            <img src="/favicon.svg" alt="" width={24} height={24} className="size-6" />
            CPXTB Pay
          </SheetTitle>
          <SheetDescription>{t("site.menu.description")}</SheetDescription>
        </SheetHeader>
        <div className="flex flex-1 flex-col gap-3 overflow-y-auto overscroll-contain p-3">
          <nav aria-label={t("site.menu.main")}>
            <ul className="flex flex-col gap-1">
              {links.map((link) => (
                <MenuItemLink
                  key={link.href}
                  link={link}
                  current={location === (link.path ?? link.href)}
                  onNavigate={close}
                />
              ))}
            </ul>
          </nav>

          <MenuGroup id="menu-legal" title={t("site.menu.legal")}>
            <nav aria-labelledby="menu-legal">
              <ul className="flex flex-col gap-1">
                {LEGAL_LINKS.map((link) => (
                  <MenuItemLink
                    key={link.href}
                    link={link}
                    current={location === link.href}
                    onNavigate={close}
                  />
                ))}
              </ul>
            </nav>
          </MenuGroup>

          <MenuGroup id="menu-appearance" title={t("site.menu.appearance")}>
            <div className="grid grid-cols-2 gap-2 px-1">
              <Button
                variant={theme === "light" ? "default" : "outline"}
                aria-pressed={theme === "light"}
                onClick={() => setTheme("light")}
              >
                <Sun aria-hidden="true" />
                {t("site.menu.light")}
              </Button>
              <Button
                variant={theme === "dark" ? "default" : "outline"}
                aria-pressed={theme === "dark"}
                onClick={() => setTheme("dark")}
              >
                <Moon aria-hidden="true" />
                {t("site.menu.dark")}
              </Button>
            </div>
          </MenuGroup>

          <MenuGroup id="menu-account" title={t("site.menu.account")}>
            {user ? (
              <div className="flex flex-col gap-1">
                <p className="px-3 py-1 text-sm">
                  <span className="text-muted-foreground">{t("site.menu.signedInAs")}</span>{" "}
                  <span className="font-semibold break-all" data-testid="menu-username">
                    {user.displayName ?? user.username}
                  </span>
                </p>
                <ul className="flex flex-col gap-1">
                  <MenuItemLink
                    link={{ href: "/profile", label: "site.menu.profile", icon: UserRound }}
                    current={location === "/profile"}
                    onNavigate={close}
                  />
                </ul>
                <button
                  type="button"
                  className={itemClass}
                  onClick={signOut}
                  disabled={logoutMutation.isPending}
                >
                  <LogOut className="size-4 shrink-0" aria-hidden="true" />
                  {logoutMutation.isPending ? t("site.menu.signingOut") : t("site.menu.signOut")}
                </button>
              </div>
            ) : (
              <ul className="flex flex-col gap-1">
                <MenuItemLink
                  link={{ href: "/auth", label: "site.menu.signIn", icon: LogIn }}
                  current={location === "/auth"}
                  onNavigate={close}
                />
              </ul>
            )}
          </MenuGroup>
        </div>
      </SheetContent>
    </Sheet>
  );
}
