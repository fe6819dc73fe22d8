/**
 * Each locale file becomes its own hashed chunk, fetched only when that language is shown. `legal` reaches the page
 * through loader data only and `mail` is the server's (CLIENT_NAMESPACES), so the browser has no use for their files.
 * A module of its own, imported when a namespace is first missing (i18n.client.ts): a page hydrates with the
 * translations its document carries, and the loaders (a hashed file name each) need not be part of its first load.
 */
export const translationLoaders = import.meta.glob<{ default: Record<string, unknown> }>(
  "/locales/*/{common,pages,landing,account,billing,learning,lists,reading}.json",
);
