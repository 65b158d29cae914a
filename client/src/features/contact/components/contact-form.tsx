import { type ContactResponse, contactRequest } from "@common/contact";
import { CircleCheck, Send } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { isApiError } from "@/lib/api-client";
import { type FieldErrors, validate } from "@/lib/form-errors";
import { serverFieldErrors, useSendContactMessage } from "../api/send-contact-message";

const EMPTY = { name: "", email: "", subject: "", message: "" };
const MESSAGE_MAX = 5000;

function failureText(error: unknown): string {
  if (isApiError(error) && error.status === 429) {
    return "You have sent several messages in a short time. Please solve the security check, or wait a few minutes, and send again.";
  }
  if (isApiError(error)) {
    const message = (error.body as { error?: { message?: unknown } } | undefined)?.error?.message;
    if (typeof message === "string") return message;
  }
  return "Your message could not be sent. Check your connection and try again; nothing you typed is lost.";
}

/** The contact form: checked with the API's own schema before sending, and by the server on arrival. */
export function ContactForm({ defaultValues }: { defaultValues?: Partial<typeof EMPTY> }) {
  const [values, setValues] = React.useState({ ...EMPTY, ...defaultValues });
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const [sent, setSent] = React.useState<ContactResponse | null>(null);
  const send = useSendContactMessage();
  const messageId = React.useId();
  const unsaved = useUnsavedChanges({ what: "your message" });

  const update =
    (field: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setValues((v) => ({ ...v, [field]: event.target.value }));
      if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
    };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = validate(contactRequest, values);
    if (checked.errors) {
      setErrors(checked.errors);
      const first = Object.keys(checked.errors)[0];
      if (first) document.getElementById(`contact-${first}`)?.focus();
      return;
    }
    send.mutate(checked.data, {
      onSuccess: (result) => {
        setSent(result);
        setValues(EMPTY);
      },
      onError: (error) => {
        const fields = serverFieldErrors(error);
        if (fields) setErrors(fields);
      },
    });
  };

  if (sent) {
    return (
      <div
        role="status"
        className="flex flex-col items-start gap-4 rounded-xl border border-success/50 bg-success/10 p-6"
        data-testid="contact-sent"
      >
        <div className="flex items-center gap-3">
          <CircleCheck className="size-6 text-success" aria-hidden="true" />
          <h2 className="font-semibold text-xl">Message sent</h2>
        </div>
        <p className="text-pretty">{sent.message}</p>
        <p className="text-sm">
          Your reference:{" "}
          <code className="rounded bg-muted px-1.5 py-0.5 font-mono" data-testid="contact-reference">
            {sent.id}
          </code>
          . Quote it if you write to us again about the same matter.
        </p>
        <Button variant="outline" onClick={() => setSent(null)}>
          Send another message
        </Button>
      </div>
    );
  }

  const messageError = errors.message;
  return (
    <form
      ref={unsaved.formRef}
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-5"
      aria-label="Contact form"
    >
      {unsaved.dialog}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          id="contact-name"
          label="Name"
          autoComplete="name"
          value={values.name}
          onChange={update("name")}
          error={errors.name}
          maxLength={100}
        />
        <Field
          id="contact-email"
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={values.email}
          onChange={update("email")}
          error={errors.email}
          hint="We answer to this address."
        />
      </div>
      <Field
        id="contact-subject"
        label="Subject"
        value={values.subject}
        onChange={update("subject")}
        error={errors.subject}
        maxLength={150}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor="contact-message">Message</Label>
        <Textarea
          id="contact-message"
          rows={7}
          value={values.message}
          onChange={update("message")}
          maxLength={MESSAGE_MAX}
          aria-invalid={messageError ? true : undefined}
          aria-describedby={`${messageId}-count${messageError ? ` ${messageId}-error` : ""}`}
        />
        <div className="flex justify-between gap-3 text-sm">
          {messageError ? (
            <p id={`${messageId}-error`} className="font-medium text-destructive" role="alert">
              {messageError}
            </p>
          ) : (
            <span />
          )}
          <span id={`${messageId}-count`} className="shrink-0 text-muted-foreground tabular-nums">
            {values.message.length.toLocaleString("en-US")} / {MESSAGE_MAX.toLocaleString("en-US")}
          </span>
        </div>
      </div>
      {send.isError && !serverFieldErrors(send.error) ? (
        <p
          role="alert"
          className="rounded-lg border border-destructive/50 bg-destructive/10 px-4 py-3 text-sm"
        >
          {failureText(send.error)}
        </p>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Button type="submit" size="lg" disabled={send.isPending}>
          {send.isPending ? (
            <Spinner size="sm" label="Sending" className="text-current" />
          ) : (
            <Send aria-hidden="true" />
          )}
          {send.isPending ? "Sending..." : "Send message"}
        </Button>
        <p className="text-muted-foreground text-sm">
          We keep your message to answer it, as described in our privacy policy.
        </p>
      </div>
    </form>
  );
}
