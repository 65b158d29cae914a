import { PUBLIC_PAGES } from "@common/page-meta";
import {
  ArrowRight,
  BellRing,
  CircleCheck,
  Coins,
  type LucideIcon,
  QrCode,
  ReceiptText,
  ScanLine,
  ShieldCheck,
  Store,
  Wallet,
} from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { buttonVariants } from "@/components/ui/button-variants";
import { PriceCard } from "@/features/price/components/price-card";
import { BACKDROP_IMAGE_URL } from "@/lib/brand";
import { usePageMeta } from "@/lib/page-meta";
import { preloadImage, serverPrefetches, whenIdle } from "@/lib/preload";
import { BuyCpxtbPage, MerchantDashboardPage } from "../lazy-pages";

const ignore = () => undefined;

/**
 * Spec section 2: on / the merchant dashboard, the buy page and the background image load in idle time. The
 * server puts `<link rel="prefetch">` for those pages' chunks into the HTML of / (fetched at idle priority,
 * run only when opened: evaluating them here would block the main thread of a phone for no visible gain);
 * without it (a client-side visit to /, a build without manifest) they are imported here.
 */
function useIdlePreload() {
  const [backdropReady, setBackdropReady] = React.useState(false);
  React.useEffect(
    () =>
      whenIdle(() => {
        if (!serverPrefetches("home")) {
          MerchantDashboardPage.preload().catch(ignore);
          BuyCpxtbPage.preload().catch(ignore);
        }
        preloadImage(BACKDROP_IMAGE_URL).then(() => setBackdropReady(true));
      }),
    [],
  );
  return backdropReady;
}

const steps: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: ReceiptText,
    title: "Create a payment request",
    text: "Enter the amount in USD or CPXTB, a description and an order number. The rate is locked for the payment's lifetime.",
  },
  {
    icon: QrCode,
    title: "Share the link or QR code",
    text: "Show the QR code at your counter, print it on a poster, or send the payment link by chat or email.",
  },
  {
    icon: CircleCheck,
    title: "See the payment arrive",
    text: "The payment turns to paid on your dashboard as soon as the chain confirms it, with a sound and a notification.",
  },
];

const merchantPoints = [
  "Payment links and QR codes any wallet can scan",
  "A live dashboard that works on the phone at your counter",
  "An inbox for transfers that matched no payment, to assign by hand",
  "A receiving address proven by your wallet's signature",
];

const payerPoints = [
  "Pay from a browser wallet, or scan the QR code with any mobile wallet",
  "The exact amount and address, ready to copy",
  "Live confirmation on the page, no refreshing",
  "Underpayments and late payments shown plainly",
];

const features: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: BellRing,
    title: "Live status",
    text: "Payments change status on screen the moment the chain confirms them.",
  },
  {
    icon: ShieldCheck,
    title: "Verified on chain",
    text: "A payment counts as paid only when the blockchain says so.",
  },
  {
    icon: Coins,
    title: "One transfer, one payment",
    text: "Every open payment has its own exact amount, so a transfer can never pay two of them.",
  },
  {
    icon: Wallet,
    title: "Straight to your wallet",
    text: "Payers send the tokens to your own address; CPXTB Pay never holds a merchant's money.",
  },
];

export default function HomePage() {
  usePageMeta(PUBLIC_PAGES["/"]);
  const backdropReady = useIdlePreload();

  return (
    <div>
      <section className="relative isolate -mt-16 overflow-hidden pt-16" aria-labelledby="hero-title">
        <div aria-hidden="true" className="hero-glow absolute inset-0 -z-20" />
        <div
          aria-hidden="true"
          className={`brand-backdrop absolute inset-0 -z-10 transition-opacity duration-700 ${backdropReady ? "" : "!opacity-0"}`}
          data-ready={backdropReady}
        />
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-10 pb-16 sm:px-6 sm:pt-16 lg:grid-cols-[1.15fr_0.85fr] lg:pb-24">
          <div className="flex flex-col gap-6">
            <p className="inline-flex w-fit items-center gap-2 rounded-full border border-border bg-card/70 px-3 py-1 font-medium text-muted-foreground text-sm backdrop-blur">
              <Coins className="size-4 text-primary" aria-hidden="true" />
              Payments in the CPXTB token
            </p>
            <h1
              id="hero-title"
              className="text-balance font-bold text-4xl leading-[1.1] tracking-tight sm:text-5xl lg:text-6xl"
            >
              Get paid in crypto, <span className="text-primary">as simply as a card.</span>
            </h1>
            <p className="max-w-xl text-pretty text-lg text-muted-foreground">
              CPXTB Pay gives merchants payment links and QR codes that any wallet can pay, and shows every
              payment the moment it is confirmed on chain. Payers scan, pay the exact amount and see it go
              through.
            </p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Link href="/merchant" className={buttonVariants({ size: "lg" })}>
                <Store aria-hidden="true" />
                Open merchant dashboard
              </Link>
              <Link href="/buy-cpxtb" className={buttonVariants({ variant: "floating", size: "lg" })}>
                <Wallet aria-hidden="true" />
                Buy CPXTB tokens
              </Link>
            </div>
            <PriceCard />
          </div>
          <PaymentIllustration />
        </div>
      </section>

      <section aria-labelledby="how-title" className="border-border border-y bg-card/40">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="how-title" className="font-bold text-3xl tracking-tight">
            How it works
          </h2>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            Three steps from a sale to money in your wallet.
          </p>
          <ol className="mt-10 grid gap-6 md:grid-cols-3">
            {steps.map((step, index) => (
              <li
                key={step.title}
                className="relative flex flex-col gap-3 rounded-xl border border-border bg-card p-6"
              >
                <div className="flex items-center gap-3">
                  <span className="inline-flex size-9 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground tabular-nums">
                    {index + 1}
                  </span>
                  <step.icon className="size-5 text-muted-foreground" aria-hidden="true" />
                </div>
                <h3 className="font-semibold text-lg">{step.title}</h3>
                <p className="text-muted-foreground">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="who-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="who-title" className="font-bold text-3xl tracking-tight">
          For both sides of the counter
        </h2>
        <div className="mt-10 grid gap-6 md:grid-cols-2">
          <AudienceCard icon={Store} title="For merchants" points={merchantPoints} />
          <AudienceCard icon={ScanLine} title="For payers" points={payerPoints} />
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <li key={feature.title} className="flex flex-col gap-2">
              <feature.icon className="size-6 text-primary" aria-hidden="true" />
              <h3 className="font-semibold">{feature.title}</h3>
              <p className="text-muted-foreground text-sm">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
        <div className="flex flex-col items-start gap-6 rounded-2xl border border-border bg-card p-8 sm:p-10 lg:flex-row lg:items-center lg:justify-between">
          <div className="flex flex-col gap-2">
            <h2 id="cta-title" className="font-bold text-2xl tracking-tight sm:text-3xl">
              Ready to take your first CPXTB payment?
            </h2>
            <p className="text-muted-foreground">Set up your business, or get some CPXTB to pay with.</p>
          </div>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <Link href="/merchant" className={buttonVariants({ size: "lg" })}>
              Start accepting payments
              <ArrowRight aria-hidden="true" />
            </Link>
            <Link href="/buy-cpxtb" className={buttonVariants({ variant: "outline", size: "lg" })}>
              Buy CPXTB
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}

function AudienceCard({ icon: Icon, title, points }: { icon: LucideIcon; title: string; points: string[] }) {
  return (
    <div className="flex flex-col gap-4 rounded-xl border border-border bg-card p-6">
      <div className="flex items-center gap-3">
        <span className="inline-flex size-11 items-center justify-center rounded-lg bg-primary/12 text-primary">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <h3 className="font-semibold text-xl">{title}</h3>
      </div>
      <ul className="flex flex-col gap-3">
        {points.map((point) => (
          <li key={point} className="flex gap-3">
            <CircleCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
            <span>{point}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A drawing of the payment flow: deliberately without amounts, and its code pattern is not a real QR code. */
function PaymentIllustration() {
  return (
    <div
      aria-hidden="true"
      className="mx-auto w-full max-w-72 select-none sm:max-w-sm lg:mx-0 lg:justify-self-end"
    >
      <div className="rotate-1 rounded-2xl border border-border bg-card/90 p-6 shadow-2xl backdrop-blur">
        <div className="flex items-center justify-between">
          <div className="flex items-center gap-2">
            <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
            <div>
              <p className="font-semibold text-sm">Payment request</p>
              <p className="text-muted-foreground text-xs">Scan with any wallet</p>
            </div>
          </div>
          <QrCode className="size-5 text-muted-foreground" />
        </div>
        <div className="mt-5 rounded-xl bg-white p-4">
          <CodePattern />
        </div>
        <div className="mt-5 flex items-center gap-3 rounded-lg bg-success/15 px-3 py-2.5 text-sm">
          <CircleCheck className="size-5 text-success" />
          <span className="font-medium">Payment confirmed</span>
        </div>
      </div>
    </div>
  );
}

const CODE_SIZE = 21;

function isFinder(x: number, y: number): boolean {
  const inBox = (ox: number, oy: number) => x >= ox && x < ox + 7 && y >= oy && y < oy + 7;
  return inBox(0, 0) || inBox(CODE_SIZE - 7, 0) || inBox(0, CODE_SIZE - 7);
}

function finderCell(x: number, y: number): boolean {
  const fx = x >= CODE_SIZE - 7 ? x - (CODE_SIZE - 7) : x;
  const fy = y >= CODE_SIZE - 7 ? y - (CODE_SIZE - 7) : y;
  return Math.max(Math.abs(fx - 3), Math.abs(fy - 3)) !== 2;
}

const cells: [number, number][] = (() => {
  const out: [number, number][] = [];
  let seed = 0x2f5b;
  for (let y = 0; y < CODE_SIZE; y++) {
    for (let x = 0; x < CODE_SIZE; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const on = isFinder(x, y) ? finderCell(x, y) : (seed >> 16) % 5 < 2;
      if (on) out.push([x, y]);
    }
  }
  return out;
})();

// One path rather than a <rect> per cell: a couple of hundred fewer elements to create and style on a phone.
const cellsPath = cells.map(([x, y]) => `M${x} ${y}h1v1h-1z`).join("");

function CodePattern() {
  return (
    <svg
      viewBox={`0 0 ${CODE_SIZE} ${CODE_SIZE}`}
      className="aspect-square w-full"
      shapeRendering="crispEdges"
      aria-hidden="true"
    >
      <path d={cellsPath} fill="#111827" />
    </svg>
  );
}
