import { PUBLIC_PAGES } from "@common/page-meta";
import { Accessibility, Eye, Gauge, Handshake, Lock, Scale, Target, Users } from "lucide-react";
import { Link } from "wouter";
import { InfoSection, PointGrid } from "@/components/content/info-section";
import { PageFrame } from "@/components/layout/page-frame";
import { buttonVariants } from "@/components/ui/button-variants";
import { usePageMeta } from "@/lib/page-meta";

const meta = PUBLIC_PAGES["/about-us"];

const principles = [
  {
    icon: Scale,
    title: "Money is never faked",
    text: "No invented balances, no optimistic green ticks. A payment is paid when the chain says so, and we show it exactly as it happened.",
  },
  {
    icon: Eye,
    title: "Say what happened",
    text: "Every error message says what went wrong and what to do next, in words a shop owner understands.",
  },
  {
    icon: Lock,
    title: "Keep as little as possible",
    text: "One session cookie, no trackers, hashed secrets. We never see your wallet's recovery phrase.",
  },
  {
    icon: Handshake,
    title: "Open standards over lock-in",
    text: "Wallets pay through EIP-681, integrations will use Standard Webhooks. You can leave with your data and your wallet.",
  },
  {
    icon: Gauge,
    title: "Fast on a cheap phone",
    text: "Pages are measured on a throttled mobile connection. A payer in a queue should not wait for our code.",
  },
  {
    icon: Accessibility,
    title: "Usable by everyone",
    text: "Keyboard access, visible focus, labels on every input, and status that never relies on colour alone.",
  },
];

export default function AboutUsPage() {
  usePageMeta(meta);
  return (
    <PageFrame title="About Us" icon={Users} backdrop description={meta.description}>
      <InfoSection id="who" title="Who we are">
        <div className="flex max-w-prose flex-col gap-4 text-pretty leading-relaxed">
          <p>
            We are <strong>the CPXTB Pay team</strong>: engineers, designers and operators who build and run
            this platform. We would rather show you how the product works than put faces on a page, so this
            one is about what we do and the principles we hold ourselves to.
          </p>
          <p>
            We talk to the merchants who use CPXTB Pay every week, and most of what we build starts as a
            message from one of them. If you have an idea or a problem,{" "}
            <Link href="/contact" className="text-primary underline underline-offset-4">
              write to us
            </Link>
            : the person who answers is one of the people who build the product.
          </p>
        </div>
      </InfoSection>

      <InfoSection id="mission" title="Our mission">
        <div className="flex gap-4 rounded-xl border border-primary/40 bg-primary/8 p-6">
          <Target className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
          <p className="text-pretty text-lg leading-relaxed">
            Make accepting a token payment as ordinary, safe and clear for a small business as taking a card.
            Payments go straight to the merchant's own wallet, so a merchant never has to trust us with their
            money. A payer who signs in with Google, Facebook, X or Apple instead of using a wallet of their
            own gets a managed wallet: that one we hold for them (custodial, with a daily limit), and they can
            withdraw from it at any time.
          </p>
        </div>
      </InfoSection>

      <InfoSection id="principles" title="The principles we build by">
        <PointGrid points={principles} />
      </InfoSection>

      <InfoSection id="working" title="How we work">
        <ul className="flex max-w-prose list-disc flex-col gap-2 pl-5 text-pretty leading-relaxed marker:text-primary">
          <li>Every change is tested against a real database and a real blockchain node before it ships.</li>
          <li>
            Decisions that are hard to reverse (custody, how money is represented, confirmation policy) are
            written down with their reasons.
          </li>
          <li>Performance has budgets that are measured, not hoped for.</li>
          <li>
            Security reports are answered first. If you found a problem, tell us through the contact form.
          </li>
        </ul>
      </InfoSection>

      <div className="flex flex-wrap gap-3">
        <Link href="/contact" className={buttonVariants()}>
          Contact the team
        </Link>
        <Link href="/about" className={buttonVariants({ variant: "outline" })}>
          About the platform
        </Link>
        <Link href="/blog" className={buttonVariants({ variant: "outline" })}>
          Read the blog
        </Link>
      </div>
    </PageFrame>
  );
}
