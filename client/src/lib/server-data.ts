/** Id of the JSON the server embeds beside a page it rendered: query data by query key (decision 009). */
export const SERVER_DATA_ID = "server-data";

/** The query data the server rendered the page with, read once (later calls get nothing). */
export function takeServerData(): Record<string, unknown> {
  if (typeof document === "undefined") return {};
  const element = document.getElementById(SERVER_DATA_ID);
  if (!element) return {};
  element.remove();
  try {
    const data: unknown = JSON.parse(element.textContent ?? "");
    return data && typeof data === "object" ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
