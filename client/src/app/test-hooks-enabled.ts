/**
 * Whether the Playwright suite's hooks act in this tab (test-hooks.tsx): in a non-production build, or when
 * localStorage "cpxtb-pay-e2e" is "1" (the e2e fixtures set it before the page loads).
 */
export function testHooksEnabled(): boolean {
  if (import.meta.env.MODE !== "production") return true;
  try {
    return window.localStorage.getItem("cpxtb-pay-e2e") === "1";
  } catch {
    return false;
  }
}
