import { Spinner } from "@/components/ui/spinner";
import { useT } from "@/i18n/i18n";

/** A part of the dashboard whose code loads on demand (a sheet's content, the setup form), while it loads. */
export function LoadingPart() {
  const t = useT();
  return (
    <div className="flex justify-center py-12">
      <Spinner label={t("merchant.common.loading")} />
    </div>
  );
}
