import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, hashedContentSecurityPolicy } from "#app/http/csp.ts";
import { PROJECT_ROOT } from "#tests/support/paths.ts";

const PUBLIC = path.resolve(PROJECT_ROOT, "public");

describe("the installable app and its service worker (ADR 065)", () => {
  it("has a manifest that opens the review, with the logo's icons, name and theme colours", () => {
    const manifest = JSON.parse(readFileSync(path.join(PUBLIC, "site.webmanifest"), "utf8")) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; purpose?: string }[];
    };
    expect(manifest.start_url).toBe("/account/review");
    expect(manifest.name).toBe("Polyglot");
    expect(manifest.display).toBe("standalone");
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    expect(manifest.icons.some((icon) => icon.purpose === "maskable")).toBe(true);
    for (const icon of manifest.icons) expect(existsSync(path.join(PUBLIC, icon.src)), icon.src).toBe(true);
  });

  it("keeps the worker script within 15 KB gzipped", () => {
    const script = readFileSync(path.join(PUBLIC, "sw.js"));
    expect(gzipSync(script, { level: 9 }).length).toBeLessThanOrEqual(15 * 1024);
  });

  it("lets only the site's own script run as a worker", () => {
    for (const policy of [contentSecurityPolicy("abc"), hashedContentSecurityPolicy(["xyz"])])
      expect(policy).toContain("worker-src 'self';");
  });
});
