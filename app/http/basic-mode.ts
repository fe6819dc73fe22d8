import { createContext, useContext } from "react";

/** True when the page is sent as basic HTML: no scripts, no module preloads (provided by the server render). */
export const BasicModeContext = createContext(false);
export const useBasicMode = () => useContext(BasicModeContext);

export const BASIC_MODES = ["basic", "full"] as const;
export type BasicMode = (typeof BASIC_MODES)[number];
export const isBasicMode = (value: unknown): value is BasicMode =>
  typeof value === "string" && (BASIC_MODES as readonly string[]).includes(value);
