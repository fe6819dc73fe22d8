import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../support/app";

/**
 * The root loader's `locale`, as React Router's turbo-stream encodes it in a data response: a flat array in which an
 * object's key `_N` names the key at index N and its value is the index of the value (a string written once and
 * referred to everywhere it repeats).
 */
function localeOfData(body: string): string | undefined {
  const values = JSON.parse(body.split("\n", 1)[0]!) as unknown[];
  const key = `_${values.indexOf("locale")}`;
  for (const value of values) {
    if (value && typeof value === "object" && !Array.isArray(value) && key in value) {
      const at = (value as Record<string, number>)[key]!;
      return typeof values[at] === "string" ? (values[at] as string) : undefined;
    }
  }
  return undefined;
}

// A client-side navigation fetches `/de.data` for `/de`: its loaders must speak German, as the document's do.
describe("data requests of a locale's home page", () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
    if (app) rmSync(app.dataDir, { recursive: true, force: true });
  });

  it.each(["de", "es", "fr", "tr", "uk", "zh"])(
    "/%s.data is answered in that language (the root loader's locale)",
    async (locale) => {
      const response = await app.browser().request(`/${locale}.data`);
      expect(response.status).toBe(200);
      expect(localeOfData(await response.text())).toBe(locale);
    },
  );

  it("/_.data (the English home page) is answered in English", async () => {
    const response = await app.browser().request("/_.data");
    expect(response.status).toBe(200);
    expect(localeOfData(await response.text())).toBe("en");
  });
});
