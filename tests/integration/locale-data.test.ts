import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../support/app";

const homeDescription = (locale: string): string =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../locales/${locale}/pages.json`), "utf8")).home.description;

// A client-side navigation fetches `/de.data` for `/de`: its loader text must be German, as the document's is.
describe("data requests of a locale's home page", () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
    if (app) rmSync(app.dataDir, { recursive: true, force: true });
  });

  it.each(["de", "es", "fr", "tr", "uk", "zh"])("/%s.data carries the home page's loader text in that language", async (locale) => {
    const response = await app.browser().request(`/${locale}.data`);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain(homeDescription(locale));
    expect(body).not.toContain(homeDescription("en"));
  });

  it("/_.data (the English home page) carries English loader text", async () => {
    const response = await app.browser().request("/_.data");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(homeDescription("en"));
  });
});
