import { qrQueryKey } from "@common/payment-values";
import type { QrSvg } from "@common/qr";
import { useQuery } from "@tanstack/react-query";
import { cn } from "@/lib/utils";

/** The QR modules of `text` (true = dark), with a 4-module quiet zone: what every scanner reads. */
export async function qrMatrix(text: string): Promise<{ data: boolean[][]; size: number }> {
  // The encoder loads on first use only: it is never part of the entry chunk.
  const { qrModules } = await import("@common/qr");
  return qrModules(text);
}

/** The modules of a QR code as one SVG path (dark on white). */
export async function qrSvg(text: string): Promise<QrSvg> {
  const { qrSvgPath } = await import("@common/qr");
  return qrSvgPath(text);
}

export function svgMarkup({ path, size }: { path: string; size: number }, scale = 10): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size * scale}" height="${size * scale}" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}

/** Hands `blob` to the browser as a download named `fileName`. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The QR code as a PNG: `scale` pixels per module, drawn module by module (crisp at any size). */
async function qrPng(text: string, scale = 12): Promise<Blob> {
  const { data, size } = await qrMatrix(text);
  const canvas = document.createElement("canvas");
  canvas.width = size * scale;
  canvas.height = size * scale;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot draw images.");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#000";
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) context.fillRect(x * scale, y * scale, scale, scale);
    });
  });
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("The image could not be made."))),
      "image/png",
    ),
  );
}

/** Saves the QR code of `text` as an SVG file, or a PNG when `fileName` ends in .png. */
export async function downloadQr(text: string, fileName: string) {
  const blob = fileName.endsWith(".png")
    ? await qrPng(text)
    : new Blob([svgMarkup(await qrSvg(text))], { type: "image/svg+xml" });
  saveFile(blob, fileName);
}

export function QrCode({
  value,
  label,
  className,
}: {
  value: string;
  /** What the code holds, for assistive technology. */
  label: string;
  className?: string;
}) {
  // A server-rendered pay page arrives with its code in the query cache, so it is drawn in the first render.
  const qr =
    useQuery({
      queryKey: qrQueryKey(value),
      queryFn: () => qrSvg(value),
      staleTime: Number.POSITIVE_INFINITY,
    }).data ?? null;
  return (
    <div
      data-slot="qr-code"
      className={cn("aspect-square overflow-hidden rounded-lg bg-white", className)}
      role="img"
      aria-label={label}
      data-value={value}
    >
      {qr ? (
        <svg
          viewBox={`0 0 ${qr.size} ${qr.size}`}
          shapeRendering="crispEdges"
          className="size-full"
          aria-hidden="true"
        >
          <path d={qr.path} fill="#000" />
        </svg>
      ) : (
        <div className="size-full animate-pulse bg-muted motion-reduce:animate-none" />
      )}
    </div>
  );
}
