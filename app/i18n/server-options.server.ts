import type { InitOptions } from "i18next";
import { NAMESPACES } from "./locales";
import { NUMBER_VARIABLES } from "./number-variables";
import { resources } from "./resources.server";
import { translationMemo } from "./translation-memo.server";
import { namespaceRecorder } from "./used-namespaces.server";

/** The options of each request's i18next instance on the server (i18n.server.ts), apart from its language. */
export const SERVER_I18NEXT_OPTIONS = {
  resources,
  ns: [...NAMESPACES],
  defaultNS: "common",
  interpolation: { escapeValue: false, defaultVariables: NUMBER_VARIABLES },
  // The render notes which namespaces a page uses, so the document carries just those to the browser.
  postProcess: [namespaceRecorder.name],
  postProcessPassResolved: true,
} satisfies InitOptions;

/** Its modules besides React's: the namespaces' recorder, and the translations kept in memory. */
export const SERVER_I18NEXT_MODULES = [namespaceRecorder, translationMemo];
