import { type ToastLabels, useToast } from "@/hooks/use-toast";
import { useSiteT } from "@/i18n/site-words";
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "./toast";

export function Toaster() {
  const { toasts } = useToast();
  const { t } = useSiteT();
  // The frame's words by default (in the page's language); a toast that brings its own labels keeps them.
  const shell: ToastLabels = {
    close: t("site.toast.close"),
    notification: t("site.toast.notification"),
    region: t("site.toast.region", { hotkey: "F8" }),
  };
  // One toast at a time (TOAST_LIMIT): the shown one's language labels the region and the announcement too.
  const labels = toasts[0]?.labels ?? shell;
  return (
    <ToastProvider label={labels.notification}>
      {toasts.map(({ id, title, description, action, labels: own, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          {action}
          <ToastClose aria-label={(own ?? shell).close} />
        </Toast>
      ))}
      <ToastViewport label={labels.region} />
    </ToastProvider>
  );
}
