import { PUBLIC_PAGES } from "@common/page-meta";
import { BookOpen, FileCode2, Mail, Presentation, Rss, ShieldAlert } from "lucide-react";
import { Link } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { ContactForm } from "@/features/contact/components/contact-form";
import { usePageMeta } from "@/lib/page-meta";

const meta = PUBLIC_PAGES["/contact"];

const community = [
  { href: "/blog", label: "Blog", text: "Guides and news", icon: BookOpen, internal: true },
  { href: "/rss.xml", label: "RSS feed", text: "New articles in your reader", icon: Rss, internal: false },
  {
    href: "/presentation",
    label: "Presentation",
    text: "The platform in 12 slides",
    icon: Presentation,
    internal: true,
  },
  { href: "/api/docs", label: "API documentation", text: "For developers", icon: FileCode2, internal: false },
];

export default function ContactPage() {
  usePageMeta(meta);
  return (
    <PageFrame title="Contact Us" icon={Mail} width="wide" description={meta.description}>
      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <section aria-label="Write to us" className="rounded-xl border border-border bg-card p-5 sm:p-6">
          <ContactForm />
        </section>
        <aside className="flex flex-col gap-6">
          <div className="flex flex-col gap-3">
            <h2 className="font-semibold text-lg">Community and resources</h2>
            <ul className="flex flex-col gap-2">
              {community.map((item) => {
                const body = (
                  <>
                    <item.icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
                    <span className="flex flex-col">
                      <span className="font-medium">{item.label}</span>
                      <span className="text-muted-foreground text-sm">{item.text}</span>
                    </span>
                  </>
                );
                const className =
                  "flex min-h-11 items-center gap-3 rounded-lg border border-border bg-card px-4 py-3 hover:border-primary/60";
                return (
                  <li key={item.href}>
                    {item.internal ? (
                      <Link href={item.href} className={className}>
                        {body}
                      </Link>
                    ) : (
                      <a href={item.href} className={className}>
                        {body}
                      </a>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
          <div className="flex gap-3 rounded-lg border border-warning/50 bg-warning/10 p-4 text-sm">
            <ShieldAlert className="size-5 shrink-0 text-warning" aria-hidden="true" />
            <p className="text-pretty">
              We never message you first about a payment and never ask for your wallet's recovery phrase.
              Anyone who does is not us.
            </p>
          </div>
          <p className="text-muted-foreground text-sm">
            For payment problems, include the payment reference. See also our{" "}
            <Link href="/privacy-policy" className="text-primary underline underline-offset-4">
              privacy policy
            </Link>
            .
          </p>
        </aside>
      </div>
    </PageFrame>
  );
}
