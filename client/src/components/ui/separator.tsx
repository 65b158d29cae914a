import type * as React from "react";
import { cn } from "@/lib/utils";

/** A purely visual rule; use a heading or landmark when the split carries meaning. */
export function Separator({ className, ...props }: React.ComponentProps<"hr">) {
  return <hr data-slot="separator" className={cn("my-3 border-border border-t", className)} {...props} />;
}
