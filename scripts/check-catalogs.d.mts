/** Every problem of the message catalogs under `root`, as readable lines (empty: all is well). */
export function checkCatalogs(
  root: string,
  options: { locales: readonly string[]; areas: readonly string[]; serverAreas?: readonly string[] },
): string[];
