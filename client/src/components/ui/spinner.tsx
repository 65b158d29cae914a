import { cva, type VariantProps } from "class-variance-authority";
import { LoaderCircle } from "lucide-react";
import type * as React from "react";

const spinnerVariants = cva("animate-spin text-primary motion-reduce:animate-none", {
  variants: { size: { sm: "size-4", default: "size-6", lg: "size-8" } },
  defaultVariants: { size: "default" },
});

/** Part of the always-loaded shell, so it composes classes with cva alone (no tailwind-merge): size via `size`. */
export function Spinner({
  className,
  size,
  label = "Loading",
  ...props
}: React.ComponentProps<"svg"> & VariantProps<typeof spinnerVariants> & { label?: string }) {
  return (
    <LoaderCircle
      data-slot="spinner"
      role="status"
      aria-label={label}
      className={spinnerVariants({ size, className })}
      {...props}
    />
  );
}
