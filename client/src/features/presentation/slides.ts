import {
  BellRing,
  ChartColumn,
  Coins,
  Layers,
  type LucideIcon,
  Mail,
  QrCode,
  Rocket,
  ShieldCheck,
  Store,
  TriangleAlert,
  Webhook,
} from "lucide-react";

export type Slide = {
  icon: LucideIcon;
  eyebrow: string;
  title: string;
  points: string[];
  cta?: { href: string; label: string };
};

export const SLIDES: Slide[] = [
  {
    icon: Coins,
    eyebrow: "CPXTB Pay",
    title: "Crypto payments, as simple as a card",
    points: [
      "Payment links and QR codes that any wallet can pay",
      "Every payment verified on chain and shown live",
      "Built for a merchant at a counter with a phone",
    ],
  },
  {
    icon: TriangleAlert,
    eyebrow: "The problem",
    title: "Taking crypto is still awkward",
    points: [
      "Copying addresses and amounts by hand causes mistakes",
      "Merchants refresh block explorers to see if money arrived",
      "Wrong amounts and late payments are handled by guesswork",
    ],
  },
  {
    icon: Store,
    eyebrow: "The solution",
    title: "A payment request for every sale",
    points: [
      "Amount in USD, converted at a locked rate, or directly in CPXTB",
      "Description, order number and an expiry (15 minutes by default)",
      "A unique link, a QR code and a printable poster",
    ],
  },
  {
    icon: QrCode,
    eyebrow: "How paying works",
    title: "Scan, confirm, done",
    points: [
      "The QR code carries a standard EIP-681 payment URI",
      "The payer's wallet fills in token, address and exact amount",
      "Browser wallets, mobile wallets, or a managed wallet after signing in with Google, Facebook, X or Apple (held for the payer, custodial, withdrawable any time)",
    ],
  },
  {
    icon: ShieldCheck,
    eyebrow: "Trust",
    title: "Paid means paid on chain",
    points: [
      "An indexer follows the token's transfers block by block",
      "Payments complete after the required confirmations",
      "Reorganisations are detected; nothing is silently rewritten",
    ],
  },
  {
    icon: BellRing,
    eyebrow: "For merchants",
    title: "See money arrive, live",
    points: [
      "Dashboard updates over WebSocket, with sound and notifications",
      "Partial, over, late and unmatched payments shown plainly",
      "Manual verification by transaction hash",
    ],
  },
  {
    icon: ChartColumn,
    eyebrow: "Coming next · For the books",
    title: "History, reports and exports",
    points: [
      "Search and filter every payment",
      "Totals by status and revenue over time",
      "CSV and PDF exports with the rate of each payment",
    ],
  },
  {
    icon: Webhook,
    eyebrow: "Coming next · For developers",
    title: "Integrate in an afternoon",
    points: [
      "Standard Webhooks: signed, retried with backoff, replayable",
      "Scoped API keys, shown once and stored hashed",
      "OpenAPI description at /api/docs",
    ],
  },
  {
    icon: Coins,
    eyebrow: "Costs",
    title: "No percentage taken in transit",
    points: [
      "Payers pay a small network fee on Base, usually well below a cent",
      "Funds go straight to the merchant's own wallet",
      "No chargebacks: refunds are the merchant's decision",
    ],
  },
  {
    icon: Layers,
    eyebrow: "Under the hood",
    title: "Standard, proven parts",
    points: [
      "CPXTB: an ERC-20 token on Base (chain id 8453)",
      "PostgreSQL, Redis and several server instances in production",
      "One command runs everything locally, with a development chain",
    ],
  },
  {
    icon: Rocket,
    eyebrow: "Getting started",
    title: "Your first payment in minutes",
    points: [
      "Register your business and prove your receiving wallet",
      "Create a payment request and show the QR code",
      "Watch it turn green on your dashboard",
    ],
    cta: { href: "/merchant", label: "Open the merchant dashboard" },
  },
  {
    icon: Mail,
    eyebrow: "Thank you",
    title: "Questions? Talk to us",
    points: [
      "Read the guides on the blog",
      "Write to the team through the contact page",
      "Buy CPXTB to try a payment yourself",
    ],
    cta: { href: "/contact", label: "Contact the team" },
  },
];
