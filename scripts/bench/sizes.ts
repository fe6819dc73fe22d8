import { BROWSER_USER_AGENT } from "../support/app-process.ts";
import { gzip9, rawGet } from "./http.ts";
import { BASE_HEADERS, onCleanup, USE_BROWSER } from "./run.ts";
import { CHROMIUM_LAUNCH_OPTIONS } from "../support/chromium.ts";

// 1. Size budgets

export type Asset = {
  url: string;
  via: string;
  rawBytes: number;
  transferredBytes: number;
  contentEncoding: string;
  gzip9Bytes: number;
};

export const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["']([^"'`\s]+\.m?js)["']/g;
export const DYNAMIC_IMPORT = /\bimport\(\s*["'`]([^"'`\s]+\.m?js)["'`]\s*\)/g;

export function specifiers(code: string, pattern: RegExp, base: string, origin: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(pattern)) {
    const url = new URL(match[1]!, base);
    if (url.origin === origin) found.add(url.pathname);
  }
  return [...found];
}

export function attribute(tag: string, name: string): string | null {
  return (
    tag.match(new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, "i"))?.[1] ??
    tag.match(new RegExp(`\\b${name}\\s*=\\s*'([^']*)'`, "i"))?.[1] ??
    null
  );
}

export async function measureAsset(baseUrl: string, pathname: string, via: string): Promise<Asset & { code: string }> {
  const reply = await rawGet(baseUrl + pathname, {
    "User-Agent": BROWSER_USER_AGENT,
    Accept: "*/*",
    "Accept-Encoding": "gzip",
  });
  if (reply.status !== 200) throw new Error(`GET ${pathname} answered ${reply.status}`);
  return {
    url: pathname,
    via,
    rawBytes: reply.decoded.length,
    transferredBytes: reply.wire.length,
    contentEncoding: String(reply.headers["content-encoding"] ?? "identity"),
    gzip9Bytes: gzip9(reply.decoded),
    code: reply.decoded.toString("utf8"),
  };
}

export async function browserFirstLoad(
  baseUrl: string,
): Promise<{ scripts: string[]; requests: number; ms: number } | { skipped: string }> {
  if (!USE_BROWSER) return { skipped: "BENCH_BROWSER=0" };
  let playwright: typeof import("@playwright/test");
  try {
    playwright = await import("@playwright/test");
  } catch (error) {
    return { skipped: `@playwright/test unavailable: ${error instanceof Error ? error.message : String(error)}` };
  }
  const t0 = performance.now();
  let browser: Awaited<ReturnType<typeof playwright.chromium.launch>>;
  try {
    browser = await playwright.chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  } catch (error) {
    return {
      skipped: `Chromium did not start: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    };
  }
  const unregister = onCleanup("Chromium", () => browser.close());
  try {
    const context = await browser.newContext({
      userAgent: BROWSER_USER_AGENT,
      locale: "en-US",
      extraHTTPHeaders: { "Accept-Language": "en" },
    });
    const page = await context.newPage();
    const scripts = new Set<string>();
    let requests = 0;
    page.on("request", (req) => {
      requests++;
      const url = new URL(req.url());
      if (req.resourceType() === "script" && url.origin === baseUrl) scripts.add(url.pathname);
    });
    await page.goto(`${baseUrl}/`, { waitUntil: "networkidle", timeout: 30_000 });
    // Hydration done: the i18n resources of the page are loaded before it starts.
    await page.waitForTimeout(300);
    return { scripts: [...scripts], requests, ms: Math.round(performance.now() - t0) };
  } finally {
    await browser.close();
    unregister();
  }
}

export async function sizeBudgets(baseUrl: string) {
  const page = await rawGet(`${baseUrl}/`, { ...BASE_HEADERS, "Accept-Encoding": "gzip" });
  if (page.status !== 200)
    throw new Error(`GET / answered ${page.status} (Location: ${page.headers.location ?? "-"}), expected 200`);
  const html = page.decoded.toString("utf8");
  const htmlSize = {
    rawBytes: page.decoded.length,
    transferredBytes: page.wire.length,
    contentEncoding: String(page.headers["content-encoding"] ?? "identity"),
    gzip9Bytes: gzip9(page.decoded),
  };

  const origin = new URL(baseUrl).origin;
  const roots = new Map<string, string>();
  const inlineModules: string[] = [];
  let otherInlineScripts = 0;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    const type = attribute(attributes, "type");
    const src = attribute(attributes, "src");
    if (src && type === "module") roots.set(new URL(src, baseUrl + "/").pathname, "<script type=module src>");
    else if (src) roots.set(new URL(src, baseUrl + "/").pathname, "<script src>");
    else if (type === "module") inlineModules.push(match[2] ?? "");
    else otherInlineScripts += Buffer.byteLength(match[2] ?? "");
  }
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(match[0], "rel");
    const href = attribute(match[0], "href");
    if (rel === "modulepreload" && href && !roots.has(new URL(href, baseUrl + "/").pathname))
      roots.set(new URL(href, baseUrl + "/").pathname, "modulepreload");
  }
  const stylesheets = [...html.matchAll(/<link\b[^>]*>/gi)]
    .filter((m) => attribute(m[0], "rel") === "stylesheet" && attribute(m[0], "href"))
    .map((m) => new URL(attribute(m[0], "href")!, baseUrl + "/").pathname);
  for (const code of inlineModules) {
    // The inline module imports the route modules and, unconditionally, the client entry.
    for (const url of specifiers(code, STATIC_IMPORT, baseUrl + "/", origin))
      if (!roots.has(url)) roots.set(url, "inline module import");
    for (const url of specifiers(code, DYNAMIC_IMPORT, baseUrl + "/", origin))
      if (!roots.has(url)) roots.set(url, "inline module import()");
  }

  // The static import graph from there: anything not preloaded is still downloaded before the app runs.
  const assets: Asset[] = [];
  const lazy = new Set<string>();
  const queue = [...roots];
  const seen = new Set(roots.keys());
  while (queue.length > 0) {
    const [url, via] = queue.shift()!;
    const { code, ...asset } = await measureAsset(baseUrl, url, via);
    assets.push(asset);
    for (const next of specifiers(code, STATIC_IMPORT, baseUrl + url, origin)) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([next, `static import (not preloaded) from ${url}`]);
    }
    for (const next of specifiers(code, DYNAMIC_IMPORT, baseUrl + url, origin)) lazy.add(next);
  }
  for (const url of seen) lazy.delete(url);
  const inline = inlineModules.map((code) => ({ rawBytes: Buffer.byteLength(code), gzip9Bytes: gzip9(code) }));
  const sum = (
    items: { transferredBytes?: number; gzip9Bytes: number; rawBytes: number }[],
    key: "transferredBytes" | "gzip9Bytes" | "rawBytes",
  ) => items.reduce((total, item) => total + (item[key] ?? 0), 0);
  const inlineRaw = inline.reduce((t, i) => t + i.rawBytes, 0);
  const inlineGzip9 = inline.reduce((t, i) => t + i.gzip9Bytes, 0);

  const css = await Promise.all(
    stylesheets.map(async (url) => {
      const { code: _code, ...asset } = await measureAsset(baseUrl, url, "<link rel=stylesheet>");
      return asset;
    }),
  );

  const lazyAssets: Asset[] = [];
  for (const url of [...lazy].sort()) {
    const { code: _code, ...asset } = await measureAsset(baseUrl, url, "dynamic import()");
    lazyAssets.push(asset);
  }

  // A real browser as a cross-check: which scripts does it actually fetch until the network is idle?
  const browser = await browserFirstLoad(baseUrl);
  let browserCheck: Record<string, unknown>;
  if ("skipped" in browser) {
    browserCheck = { skipped: browser.skipped };
  } else {
    const extra: Asset[] = [];
    for (const url of browser.scripts.filter((u) => !seen.has(u))) {
      const known = lazyAssets.find((a) => a.url === url);
      if (known) extra.push({ ...known, via: "dynamic import() run at start-up" });
      else {
        const { code: _code, ...asset } = await measureAsset(baseUrl, url, "fetched by the browser");
        extra.push(asset);
      }
    }
    const observed = assets.filter((a) => browser.scripts.includes(a.url)).concat(extra);
    browserCheck = {
      scripts: browser.scripts.length,
      requests: browser.requests,
      transferredBytes: sum(observed, "transferredBytes"),
      gzip9Bytes: sum(observed, "gzip9Bytes"),
      rawBytes: sum(observed, "rawBytes"),
      notInHtmlParse: extra,
      parsedButNotFetched: assets.filter((a) => !browser.scripts.includes(a.url)).map((a) => a.url),
      ms: browser.ms,
    };
  }

  return {
    method:
      "each response requested with Accept-Encoding: gzip through node:http; transferred = body bytes on the wire as the server " +
      "sent them (compression middleware, zlib default level 6, bodies under 1 KiB uncompressed), headers not counted; " +
      "gzip -9 = the decoded body compressed here with zlib level 9",
    html: htmlSize,
    js: {
      files: assets,
      inlineModuleScripts: inline,
      /** Part of the HTML bytes too; counted in the JS total as the brief asks. */
      totals: {
        files: assets.length,
        rawBytes: sum(assets, "rawBytes") + inlineRaw,
        transferredBytes: sum(assets, "transferredBytes") + inlineGzip9,
        gzip9Bytes: sum(assets, "gzip9Bytes") + inlineGzip9,
      },
      staticImportsNotPreloaded: assets.filter((a) => a.via.startsWith("static import")).map((a) => a.url),
      otherInlineScriptBytes: otherInlineScripts,
    },
    lazyChunks: { count: lazyAssets.length, gzip9Bytes: sum(lazyAssets, "gzip9Bytes"), files: lazyAssets },
    css: { files: css, transferredBytes: sum(css, "transferredBytes"), gzip9Bytes: sum(css, "gzip9Bytes") },
    browserCheck,
  };
}
