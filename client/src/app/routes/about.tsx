import { PUBLIC_PAGES } from "@common/page-meta";
import {
  BellRing,
  Blocks,
  FileCode2,
  Info,
  KeyRound,
  QrCode,
  ReceiptText,
  ShieldCheck,
  Wallet,
  Webhook,
} from "lucide-react";
import { Link } from "wouter";
import { InfoSection, PointGrid } from "@/components/content/info-section";
import { PageFrame } from "@/components/layout/page-frame";
import { buttonVariants } from "@/components/ui/button-variants";
import { usePageMeta } from "@/lib/page-meta";

const meta = PUBLIC_PAGES["/about"];

const journey = [
  {
    icon: ReceiptText,
    title: "A payment request",
    text: "The merchant asks for an amount in USD (converted at the current CPXTB price and locked) or in CPXTB, with a description, an order number and an expiry.",
  },
  {
    icon: QrCode,
    title: "A link and a standard QR code",
    text: "Each request gets an unguessable link and a QR code carrying an EIP-681 payment URI, which any Ethereum wallet can read.",
  },
  {
    icon: Blocks,
    title: "A transfer on chain",
    text: "The payer's wallet sends the exact amount of CPXTB straight to the merchant's own wallet; we never hold a merchant's money. A payer who signs in instead pays from a managed wallet we hold for them (custodial, with a daily limit, withdrawable at any time).",
  },
  {
    icon: BellRing,
    title: "A confirmed payment",
    text: "CPXTB Pay follows the token's transfers block by block, matches them to requests and reports each payment live once it has the required confirmations.",
  },
];

const principles = [
  {
    icon: ShieldCheck,
    title: "Paid means paid on chain",
    text: "A payment is completed only when the blockchain says so. Reorganisations are detected and shown, never silently rewritten.",
  },
  {
    icon: Wallet,
    title: "Your keys, your funds",
    text: "Payments go to the merchant's own address, proven with a signature. We never ask for a recovery phrase.",
  },
  {
    icon: Webhook,
    title: "Open standards",
    text: "EIP-681 payment URIs, ERC-20 transfers, EIP-191 signatures and Sign-In with Ethereum. Nothing proprietary between you and your money.",
  },
  {
    icon: KeyRound,
    title: "Honest states",
    text: "Underpaid, overpaid, late, expired and invalid payments are shown as what they are, to the payer and to the merchant.",
  },
];

export default function AboutPage() {
  usePageMeta(meta);
  return (
    <PageFrame
      title="About CPXTB Pay"
      icon={Info}
      backdrop
      description="A payment platform for the CPXTB utility token: payment links and QR codes for merchants, any wallet for payers, and every payment verified on chain."
    >
      <div className="flex max-w-prose flex-col gap-4 text-pretty text-lg leading-relaxed">
        <p>
          CPXTB Pay lets a business accept payments in <strong>CPXTB</strong>, an ERC-20 utility token on the{" "}
          <strong>Base</strong> network, as easily as it would show a card terminal. A merchant creates a
          payment request, the customer scans a QR code or opens a link, and the payment appears on the
          merchant's dashboard the moment it is confirmed.
        </p>
        <p>
          It is built for the counter as much as for the web shop: the dashboard works one-handed on a phone,
          the payment page fits a small screen, and everything updates live without reloading.
        </p>
      </div>

      <InfoSection id="journey" title="From a sale to a confirmed payment">
        <ol className="grid gap-4 sm:grid-cols-2">
          {journey.map((step, index) => (
            <li key={step.title} className="flex flex-col gap-2 rounded-xl border border-border bg-card p-5">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-8 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground text-sm tabular-nums">
                  {index + 1}
                </span>
                <step.icon className="size-5 text-muted-foreground" aria-hidden="true" />
                <h3 className="font-semibold">{step.title}</h3>
              </div>
              <p className="text-muted-foreground text-sm leading-relaxed">{step.text}</p>
            </li>
          ))}
        </ol>
      </InfoSection>

      <InfoSection id="merchants" title="What merchants get">
        <ul className="grid list-disc gap-2 pl-5 text-pretty leading-relaxed marker:text-primary sm:grid-cols-2">
          <li>Payment requests in USD or CPXTB, with the rate locked for the request's lifetime</li>
          <li>Payment links, QR codes and printable posters</li>
          <li>A live dashboard with sound and notifications when money arrives</li>
          <li>History with search and filters, and an inbox for unmatched transfers</li>
          <li>
            Coming next: reports with CSV and PDF exports, signed webhooks, scoped API keys and email
            notifications
          </li>
          <li>A payment page in the business's own colours and logo</li>
        </ul>
      </InfoSection>

      <InfoSection id="payers" title="What payers get">
        <p className="max-w-prose text-pretty leading-relaxed">
          Payers use the wallet they already have: a browser wallet, or a mobile wallet that scans the QR
          code. A payer without one can sign in with Google, Facebook, X or Apple and pay from a managed
          wallet, which CPXTB Pay holds for them (custodial, with a daily limit; they can withdraw at any
          time). The payment page shows the exact amount in CPXTB and USD, a countdown, copy buttons for the
          address and the amount, and the status as it changes. Mistakes such as sending too little are
          explained in plain words.
        </p>
      </InfoSection>

      <InfoSection id="principles" title="How it is built">
        <PointGrid points={principles} />
      </InfoSection>

      <InfoSection id="token" title="The CPXTB token">
        <p className="max-w-prose text-pretty leading-relaxed">
          CPXTB is an ERC-20 token on Base (chain id 8453). Its contract address is{" "}
          <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-sm">
            0x96a0Cc3c0fc5d07818E763E1B25bc78ab4170D1b
          </code>
          . Always check the contract address before adding a token to a wallet: look-alike tokens with the
          same name exist on every network. The price CPXTB Pay uses comes from the token's liquidity pool and
          an ETH/USD price feed, and is shown with the time it was taken.
        </p>
      </InfoSection>

      <div className="flex flex-wrap gap-3">
        <Link href="/merchant" className={buttonVariants()}>
          Open the merchant dashboard
        </Link>
        <Link href="/presentation" className={buttonVariants({ variant: "outline" })}>
          <FileCode2 aria-hidden="true" />
          See the presentation
        </Link>
        <Link href="/about-us" className={buttonVariants({ variant: "outline" })}>
          About the team
        </Link>
      </div>
    </PageFrame>
  );
}
