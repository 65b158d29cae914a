/**
 * What `use-sync-external-store/shim` gives on React 18 and later: React's own hook. vite.config.ts points wouter's
 * import of the shim here, so the shell does not carry the shim's CommonJS for a hook React already has.
 */
export { useSyncExternalStore } from "react";
