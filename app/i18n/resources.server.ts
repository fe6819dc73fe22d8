import type { Resource } from "i18next";

const files = import.meta.glob<{ default: Record<string, unknown> }>("/locales/*/*.json", { eager: true });

/** Every translation file, bundled into the server build. */
export const resources: Resource = {};
for (const [file, module] of Object.entries(files)) {
  const [, , lng, name] = file.split("/");
  const ns = name!.replace(/\.json$/, "");
  (resources[lng!] ??= {})[ns] = module.default;
}
