import { Spinner } from "@/components/ui/spinner";

/** A part of the dashboard whose code loads on demand (a sheet's content, the setup form), while it loads. */
export function LoadingPart() {
  return (
    <div className="flex justify-center py-12">
      <Spinner label="Loading" />
    </div>
  );
}
