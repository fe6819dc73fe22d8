/**
 * What search engines and browsers read besides the page: canonical URLs, pages served from memory, robots.txt, the sitemap,
 * security and caching headers, and the motion preference.
 */
import { createHash } from "node:crypto";
import {
  expect,
  expectedAlternates,
  expectedSeoLinks,
  expectSeoLinks,
  HTTP_ONLY,
  learnerTest,
  LOCALES,
  localePath,
  MATRIX_LOCALES,
  pageTitle,
  PRERENDERED_PATHS,
  PUBLIC_PAGES,
  readSeoLinks,
  ROUTES,
  t,
  test,
  waitForHydration,
} from "./support";

test.describe("canonical URL", () => {
  test("keeps only whitelisted query parameters, sorted by name, and drops the rest", async ({
    page,
    baseURL,
    javaScriptEnabled,
  }) => {
    await page.goto(
      "/explore?utm_source=news&z=9&sort=new&q=cat&ref=abc&level=2&page=3&stage=learned&pos=noun&fbclid=x&language=it",
    );
    if (javaScriptEnabled) await waitForHydration(page);
    await expectSeoLinks(page, {
      canonical: `${baseURL}/explore?language=it&level=2&page=3&pos=noun&q=cat&sort=new&stage=learned`,
      pathname: "/explore",
      origin: baseURL!,
    });
  });

  test("has no query string when no whitelisted parameter is present", async ({ page, baseURL }) => {
    await page.goto("/de/subscription?ref=mail&fbclid=1");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/de/subscription`);
  });

  test("lowercases the path of a mixed-case address", async ({ page, baseURL }) => {
    const response = await page.goto("/de/SUBSCRIPTION?Sort=x&q=Cat");
    expect(response?.status()).toBe(200);
    await expect(page.locator("main h1")).toHaveText(t("de", "titles.subscription"));
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/de/subscription?q=Cat`);
  });

  test("the hreflang alternates of a mixed-case address are lowercased like its canonical", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/de/SUBSCRIPTION");
    await expect(page.locator("main h1")).toHaveText(t("de", "titles.subscription"));
    await expectSeoLinks(page, {
      canonical: `${baseURL}/de/subscription`,
      pathname: "/subscription",
      origin: baseURL!,
    });
  });

  test("a 404 under an unknown first segment has canonical and hreflang links like every other page", async ({
    page,
    consoleGuard,
    baseURL,
  }) => {
    consoleGuard.allow404();
    const response = await page.goto("/nope/x");
    expect(response?.status()).toBe(404);
    await expect(page.locator("main .error-path")).toHaveText("Page not found: /nope/x");
    await expectSeoLinks(page, { canonical: `${baseURL}/nope/x`, pathname: "/nope/x", origin: baseURL! });
  });
});

/** Text as React writes it into HTML. */
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!);

test.describe("prerendered pages", () => {
  test("all of them, in every locale, are served from memory with the runtime origin; no raw build file is served", async ({
    request,
    baseURL,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, HTTP_ONLY);
    for (const pathname of PRERENDERED_PATHS) {
      const route = ROUTES.find((r) => r.path === pathname)!;
      for (const lng of LOCALES) {
        const url = localePath(lng, pathname);
        const response = await request.get(url);
        expect(response.status(), url).toBe(200);
        // The page cache answers with an ETag; pages rendered per request have none.
        expect(response.headers()["etag"], url).toBeTruthy();
        const html = await response.text();
        expect(html, url).not.toContain("prerender.invalid");
        expect(html, url).toContain(`<html lang="${lng}" dir="ltr"`);
        expect(html, url).toContain(`<title>${escapeHtml(pageTitle(route.title(lng)))}</title>`);
        const links = [...html.matchAll(/<link rel="(?:canonical|alternate)"[^>]*href="([^"]+)"/g)].map(
          ([, href]) => href!,
        );
        expect(links.length, url).toBe(9);
        for (const href of links) expect(href.startsWith(`${baseURL}/`), `${url}: ${href}`).toBe(true);
      }
      const raw = `${pathname}/index.html`;
      expect((await request.get(raw)).status(), raw).toBe(404);
    }
  });

  test("have the canonical and hreflang links of the sitemap: one of each, no trailing slash", async ({
    page,
    baseURL,
    javaScriptEnabled,
  }) => {
    const found: unknown[] = [];
    const expected: unknown[] = [];
    for (const pathname of PRERENDERED_PATHS) {
      for (const lng of MATRIX_LOCALES) {
        const url = localePath(lng, pathname);
        await page.goto(url);
        if (javaScriptEnabled) await waitForHydration(page);
        found.push({ url, ...(await readSeoLinks(page)) });
        expected.push({ url, ...expectedSeoLinks({ canonical: baseURL + url, pathname, origin: baseURL! }) });
      }
    }
    expect(found).toEqual(expected);
  });

  learnerTest("show a signed-in learner as signed in, like every other page", async ({ page, javaScriptEnabled }) => {
    const accountMenu = page.locator("header.site-header").getByRole("group").getByText(t("en", "nav.myAccount"));
    await page.goto("/explore");
    if (javaScriptEnabled) await waitForHydration(page);
    await expect(accountMenu).toBeVisible();
    await page
      .locator("footer")
      .getByRole("link", { name: t("en", "footer.privacy") })
      .click();
    await expect(page.locator("main h1")).toHaveText(t("en", "titles.privacy"));
    expect(await accountMenu.count(), "header of /company/privacy after navigating there").toBe(1);
  });

  test("the language switch returns to the page without a trailing slash", async ({ page, javaScriptEnabled }) => {
    await page.goto("/company/privacy");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel("Interface language").selectOption("de");
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Change language" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("main h1")).toHaveText(t("de", "titles.privacy"));
    expect(new URL(page.url()).pathname).toBe("/de/company/privacy");
  });
});

test.describe("robots.txt and sitemap.xml", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, HTTP_ONLY);

  test("robots.txt disallows the account area in every locale and points at the sitemap", async ({
    request,
    baseURL,
  }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
    const lines = (await response.text()).split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Disallow: /account/");
    for (const lng of LOCALES.filter((l) => l !== "en")) expect(lines).toContain(`Disallow: /${lng}/account/`);
    expect(lines).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test("sitemap.xml lists every public page in every locale, each with its 8 alternates", async ({
    request,
    baseURL,
  }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^application\/xml/);
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);

    const entries = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, body]) => ({
      loc: /<loc>([^<]+)<\/loc>/.exec(body!)?.[1] ?? "",
      alternates: [...body!.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
        ([, hreflang, href]) => ({ hreflang, href }),
      ),
    }));
    const expectedLocs = PUBLIC_PAGES.flatMap((page) => LOCALES.map((lng) => baseURL + localePath(lng, page)));
    expect(entries.map((e) => e.loc).sort()).toEqual([...expectedLocs].sort());

    for (const entry of entries) {
      const first = new URL(entry.loc).pathname.split("/")[1] ?? "";
      const prefix = first !== "en" && (LOCALES as readonly string[]).includes(first) ? `/${first}` : "";
      const pathname = new URL(entry.loc).pathname.slice(prefix.length) || "/";
      expect(entry.alternates, entry.loc).toEqual(expectedAlternates(baseURL!, pathname));
    }
  });

  test("every URL in the sitemap answers 200 with a page in its language", async ({ request }) => {
    const xml = await (await request.get("/sitemap.xml")).text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => loc!);
    expect(locs.length).toBe(PUBLIC_PAGES.length * LOCALES.length);
    for (const loc of locs) {
      const response = await request.get(loc, { maxRedirects: 0 });
      expect(response.status(), loc).toBe(200);
      const first = new URL(loc).pathname.split("/")[1] ?? "";
      const lng = (LOCALES as readonly string[]).includes(first) ? first : "en";
      expect(await response.text(), loc).toContain(`<html lang="${lng}"`);
    }
  });
});

test.describe("headers", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, HTTP_ONLY);

  for (const [kind, url, status] of [
    ["a server-rendered page", "/explore", 200],
    ["a prerendered page", "/de/company/privacy", 200],
    ["a not-found page", "/de/nope", 404],
  ] as const) {
    test(`${kind} (${url}) is sent with nosniff, a referrer policy and a content security policy`, async ({
      request,
    }) => {
      const response = await request.get(url);
      expect(response.status()).toBe(status);
      const headers = response.headers();
      expect(headers["content-type"]).toMatch(/^text\/html/);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      const csp = headers["content-security-policy"] ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src [^;]*'self'/);
    });
  }

  test("a HEAD request gets the Content-Type and Content-Security-Policy of the GET", async ({ request }) => {
    const get = await request.get("/explore");
    const head = await request.head("/explore");
    expect(head.status()).toBe(200);
    expect(head.headers()["content-type"]).toBe(get.headers()["content-type"]);
    expect(head.headers()["content-security-policy"]).toMatch(/default-src 'self'/);
  });

  test("a page rendered per request has a CSP nonce, fresh per response and carried by its scripts", async ({
    request,
  }) => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i++) {
      // A query the page cache does not know: rendered for this request.
      const response = await request.get("/explore?ref=e2e");
      const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
      expect(nonce).toBeTruthy();
      const html = await response.text();
      const scriptNonces = [...html.matchAll(/<script[^>]*\snonce="([^"]*)"/g)].map(([, n]) => n);
      expect(scriptNonces.length).toBeGreaterThan(0);
      for (const n of scriptNonces) expect(n).toBe(nonce);
      nonces.push(nonce!);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test("a public page shared from memory allows its inline scripts by hash and carries no nonce", async ({
    request,
  }) => {
    const response = await request.get("/explore");
    const csp = response.headers()["content-security-policy"] ?? "";
    expect(csp).not.toContain("'nonce-");
    const html = await response.text();
    expect(html).not.toMatch(/<script[^>]*\snonce=/);
    const hashes = [...csp.matchAll(/'sha256-([^']+)'/g)].map(([, hash]) => hash);
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(([, content]) => content!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const content of scripts) expect(hashes).toContain(createHash("sha256").update(content).digest("base64"));
  });

  test("hashed assets are cached for a year as immutable", async ({ request }) => {
    const html = await (await request.get("/explore")).text();
    const assets = [...html.matchAll(/<link[^>]*href="(\/assets\/[^"]+)"/g)].map(([, href]) => href!);
    expect(assets.some((u) => u.endsWith(".js"))).toBe(true);
    for (const url of assets.filter((u) => u.endsWith(".js")).slice(0, 3)) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      expect(response.headers()["cache-control"], url).toBe("public, max-age=31536000, immutable");
    }
  });
});

test.describe("first paint", () => {
  test("the stylesheet and the page's translations travel inside the document, with no translation file preloaded", async ({
    request,
  }) => {
    const html = await (await request.get("/de/form")).text();
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toMatch(/<style id="stylesheet" data-full="\/assets\/styles-[\w-]+\.css">[^<]{1000,}<\/style>/);
    expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/);
    expect(html).not.toMatch(/<link\b[^>]*rel="modulepreload"[^>]*href="\/assets\/i18n-/);
    const json = /<script id="translations" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
    const translations = JSON.parse(json ?? "null") as Record<string, Record<string, unknown>>;
    // The sign-in page speaks the layout's and its own namespaces, in German only; the reviews' texts stay out.
    expect(Object.keys(translations).sort()).toEqual(["common", "pages"]);
    const form = translations.pages?.form as Record<string, string> | undefined;
    expect(form?.submit).toBe(t("de", "pages:form.submit"));
  });

  test("a first visit's document holds the rules it uses; the browser loads the whole stylesheet before the next page", async ({
    page,
    request,
    javaScriptEnabled,
  }) => {
    const inside = async (pathname: string) => {
      const html = await (await request.get(pathname)).text();
      return {
        css: /<style id="stylesheet"[^>]*>([^<]*)<\/style>/.exec(html)?.[1] ?? "",
        full: /<style id="stylesheet" data-full="([^"]+)"/.exec(html)?.[1] ?? "",
      };
    };
    const form = await inside("/form");
    const explore = await inside("/explore");
    const file = await (await request.get(form.full)).text();
    // The sign-in page's rules, not the word lists'; the lists page has its own; both well under the whole file.
    expect(form.css).toContain(".honeypot");
    expect(form.css).not.toContain(".pos-tag");
    expect(explore.css).toContain(".pos-tag");
    expect(form.css.length).toBeLessThan(file.length * 0.6);
    expect(explore.full).toBe(form.full);

    await page.goto("/form");
    const tagged = () => page.locator("main .pos-tag").first();
    const radius = () => tagged().evaluate((element) => getComputedStyle(element).borderTopLeftRadius);
    if (!javaScriptEnabled) {
      // Each document drawn by the server holds what it uses.
      await page.goto("/explore");
      expect(await radius()).not.toBe("0px");
      return;
    }
    // The list of translation files, like the whole stylesheet, is not part of the first load.
    const loaders: string[] = [];
    page.on("request", (asked) => {
      if (/\/assets\/translation-loaders-[\w-]+\.js$/.test(asked.url())) loaders.push(asked.url());
    });
    await waitForHydration(page);
    // Not during start-up (it would restyle the page): at the first move toward an action.
    const whole = page.locator(`link[rel="stylesheet"][href="${form.full}"]`);
    await page.waitForTimeout(500);
    await expect(whole).toHaveCount(0);
    expect(loaders).toEqual([]);
    const exploreLink = page.locator("header").getByRole("link", { name: t("en", "nav.explore") });
    await exploreLink.hover();
    await expect(whole).toHaveCount(1);
    await expect.poll(() => loaders.length).toBe(1);
    // A page drawn in the browser, with rules the first document did not hold, is styled.
    await exploreLink.click();
    await expect(page).toHaveURL(/\/explore$/);
    await expect(tagged()).toBeVisible();
    expect(await radius()).not.toBe("0px");
    expect(await page.locator("#stylesheet").evaluate((element) => element.tagName)).toBe("STYLE");
  });

  learnerTest(
    "a signed-in learner's documents link the stylesheet and preload the page's translation files",
    async ({ page, javaScriptEnabled }) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      const answer = await page.goto("/de/account/review");
      const html = (await answer!.text()) ?? "";
      const head = html.slice(0, html.indexOf("</head>"));
      // The built stylesheet, kept by the browser, instead of ~35 KB inside every page.
      expect(head).toMatch(/<link id="stylesheet" rel="stylesheet" href="\/assets\/styles-[\w-]+\.css"\/>/);
      expect(html).not.toMatch(/<style id="stylesheet">/);
      // The page's namespaces by name, their German files preloaded; no translation inside.
      expect(html).toMatch(
        /<script id="translations" type="application\/json" data-load="common learning">\{\}<\/script>/,
      );
      const preloaded = [...head.matchAll(/<link rel="modulepreload" href="\/assets\/(i18n-[^"]+)"/g)].map((m) => m[1]);
      expect(preloaded.map((file) => /^i18n-[a-z]+-[a-z]+/.exec(file!)?.[0]).sort()).toEqual([
        "i18n-de-common",
        "i18n-de-learning",
      ]);
      // With the browser's list of the translation files, through which it imports them.
      expect(head).toMatch(/<link rel="modulepreload" href="\/assets\/translation-loaders-[\w-]+\.js"/);
      // The page is styled by the linked file, and with JavaScript it hydrates in German from the files.
      await expect(page.locator("main h1")).toHaveText(t("de", "learning:review.title"));
      expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
      if (javaScriptEnabled) {
        await waitForHydration(page);
        // The brand leads home from both frames of the review: the focused one (cards due, decision 111, which this
        // worker's learner may have from earlier tests) and the full one (nothing due).
        await page.locator("header.site-header a.brand").click();
        await expect(page.locator("main h1")).toHaveText(t("de", "titles.accountHome"));
        expect(await page.locator("#stylesheet").getAttribute("href")).toMatch(/^\/assets\/styles-/);
      }
      expect(errors).toEqual([]);
    },
  );
});

test.describe("motion", () => {
  test("smooth scrolling is on by default", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/explore");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("smooth");
  });

  test("smooth scrolling is off for visitors who prefer reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/explore");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
  });
});
