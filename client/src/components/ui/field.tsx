import * as React from "react";
import { cn } from "@/lib/utils";
import { Input } from "./input";
import { Label } from "./label";

type FieldProps = React.ComponentProps<typeof Input> & {
  label: string;
  /** A problem with the value, shown under the input and announced. */
  error?: string | undefined;
  hint?: React.ReactNode;
  /**
   * Classes for the input itself (a code's monospace digits). `className` places the whole field; the label,
   * hint and error keep the app's font whatever the input shows.
   */
  inputClassName?: string | undefined;
};

/** A labelled input with its hint and error wired for assistive technology. */
export function Field({ label, error, hint, id, className, inputClassName, ...props }: FieldProps) {
  const generatedId = React.useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div data-slot="field" className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        className={inputClassName}
        {...props}
      />
      {hint ? (
        <p id={hintId} className="text-muted-foreground text-sm">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="font-medium text-destructive text-sm" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
