import { Hourglass } from "lucide-react";
import type * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/**
 * An honest placeholder for a screen whose feature ships in a later release: it says what will be here
 * instead of showing invented data or controls that do nothing.
 */
export function PendingFeature({
  title,
  children,
  action,
}: {
  title: string;
  children: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <Card className="border-dashed" data-testid="pending-feature">
      <CardHeader className="flex-row items-start gap-3">
        <span className="mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
          <Hourglass className="size-5" aria-hidden="true" />
        </span>
        <div className="flex flex-col gap-1.5">
          <CardTitle>{title}</CardTitle>
          <CardDescription className="text-base">{children}</CardDescription>
        </div>
      </CardHeader>
      {action ? <CardContent className="flex flex-wrap gap-3 sm:pl-18">{action}</CardContent> : null}
    </Card>
  );
}
