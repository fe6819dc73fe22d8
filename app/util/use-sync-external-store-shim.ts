/**
 * What `use-sync-external-store/shim` gives under React 18 and later: React's own hook. react-i18next imports the shim
 * (a backfill for older React); the client build resolves it here (vite.config.ts), so the browser does not load the
 * backfill's code.
 */
export { useSyncExternalStore } from "react";
