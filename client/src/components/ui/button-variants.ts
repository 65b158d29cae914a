import { cva } from "class-variance-authority";

/**
 * Kept apart from button.tsx so the always-loaded shell (header, error screen) can style buttons without pulling
 * tailwind-merge into the entry chunk; pass no conflicting classes when using it directly.
 */
export const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium text-sm outline-none transition-[color,background-color,border-color,box-shadow] focus-visible:ring-[3px] focus-visible:ring-ring/60 disabled:pointer-events-none disabled:opacity-50 aria-invalid:ring-destructive/40 [&_svg:not([class*='size-'])]:size-4 [&_svg]:pointer-events-none [&_svg]:shrink-0",
  {
    variants: {
      // Filled buttons keep a gap of the page's background between them and their focus ring: a ring of the
      // accent colour around an accent-coloured button would otherwise be invisible.
      variant: {
        default:
          "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90 focus-visible:ring-offset-2 focus-visible:ring-offset-background",
        destructive:
          "bg-destructive text-destructive-foreground shadow-xs hover:bg-destructive/90 focus-visible:ring-offset-2 focus-visible:ring-offset-background",
        outline: "border border-border bg-background shadow-xs hover:bg-accent hover:text-accent-foreground",
        secondary:
          "bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80 focus-visible:ring-offset-2 focus-visible:ring-offset-background",
        ghost: "hover:bg-accent hover:text-accent-foreground",
        link: "text-primary underline-offset-4 hover:underline",
        // Controls floating over page content (the fixed header).
        floating:
          "border border-border bg-background/70 shadow-xs backdrop-blur hover:bg-accent hover:text-accent-foreground",
      },
      // Every size keeps a 44 px touch target (UI.md).
      size: {
        default: "h-11 px-4 py-2 has-[>svg]:px-3",
        sm: "h-11 px-3 text-sm",
        lg: "h-12 px-6 text-base has-[>svg]:px-5",
        icon: "size-11",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);
