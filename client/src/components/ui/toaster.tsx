import { useToast } from "@/hooks/use-toast";
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "./toast";

export function Toaster() {
  const { toasts } = useToast();
  // One toast at a time (TOAST_LIMIT): the shown one's language labels the region and the announcement too.
  const labels = toasts[0]?.labels;
  return (
    <ToastProvider {...(labels ? { label: labels.notification } : {})}>
      {toasts.map(({ id, title, description, action, labels: own, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          {action}
          <ToastClose {...(own ? { "aria-label": own.close } : {})} />
        </Toast>
      ))}
      <ToastViewport {...(labels ? { label: labels.region } : {})} />
    </ToastProvider>
  );
}
