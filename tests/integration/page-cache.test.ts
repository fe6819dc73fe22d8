/**
 * Anonymous public pages from memory: the production build's page cache mounted in front of React Router as server.ts
 * mounts it, on PGlite, with a learner signed in through the real flow (SMTP sink). Needs `npm run build`.
 */
import { createHash } from "node:crypto";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createRequestHandler } from "@react-router/express";
import { sql } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, signedInBrowser, startApp } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type Entry = {
  publicPageCache: (build: unknown) => express.RequestHandler;
  invalidatePublicPages: () => void;
  createLoadContext: (ip: string | null) => unknown;
};

const EMAIL = "cached.pages@example.com";
let app: Awaited<ReturnType<typeof startApp>>;
let mail: Awaited<ReturnType<typeof startMailSink>>;
let entry: Entry;
let server: Server | undefined;
let base: string;
let learnerCookie: string;

function get(pathAndQuery: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return fetch(base + pathAndQuery, {
    method,
    headers: { "User-Agent": BROWSER_UA, "Accept-Encoding": "identity", ...headers },
    redirect: "manual",
  });
}

/** The raw bytes on the wire (fetch would decode them itself and hide the encoding). */
function wire(pathAndQuery: string, encoding: string): Promise<{ headers: Headers; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      base + pathAndQuery,
      { headers: { "User-Agent": BROWSER_UA, "Accept-Encoding": encoding } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === "string") headers.set(name, value);
          resolve({ headers, bytes: Buffer.concat(chunks) });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

const isCached = (response: Response) => response.headers.get("ETag") !== null;

beforeAll(async () => {
  mail = await startMailSink();
  app = await startApp({ SMTP_URL: mail.url });
  const build = await import(path.resolve(import.meta.dirname, "../../build/server/index.js"));
  entry = (build.entry.module as { appServer: Entry }).appServer;
  const web = express();
  web.use(entry.publicPageCache(build));
  web.all(
    "/{*splat}",
    createRequestHandler({ build, getLoadContext: () => entry.createLoadContext("203.0.113.9") as never }),
  );
  server = web.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const learner = await signedInBrowser(app, mail, EMAIL);
  learnerCookie = [...learner.jar].map(([name, value]) => `${name}=${value}`).join("; ");
});

afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await app?.stop();
  await mail?.close();
});

describe("the public page cache", () => {
  it("never serves a signed-in learner the shared page, and the shared page never carries the learner's data", async () => {
    const mine = await get("/explore", { Cookie: learnerCookie });
    expect(mine.status).toBe(200);
    expect(isCached(mine)).toBe(false);
    expect(mine.headers.get("Content-Security-Policy")).toContain("'nonce-");
    expect(await mine.text()).toContain(EMAIL);

    const anonymous = await get("/explore");
    expect(isCached(anonymous)).toBe(true);
    expect(await anonymous.text()).not.toContain(EMAIL);
    const again = await get("/explore", { Cookie: learnerCookie });
    expect(isCached(again)).toBe(false);
    expect(await again.text()).toContain(EMAIL);
  });

  it("serves the home page's sign-in form from the cache to anonymous visitors only, and a learner their day", async () => {
    const day = (await import("../../locales/en/learning.json")).today.title;
    const mine = await get("/", { Cookie: learnerCookie });
    expect(isCached(mine)).toBe(false);
    const mineHtml = await mine.text();
    expect(mineHtml).toContain(day);
    expect(mineHtml).not.toContain('id="home-email"');
    const anonymous = await get("/");
    const again = await get("/");
    expect(isCached(again)).toBe(true);
    for (const html of [await anonymous.text(), await again.text()]) {
      expect(html).toContain('id="home-email"');
      expect(html).not.toContain(day);
    }
    const mineAgain = await get("/", { Cookie: learnerCookie });
    expect(isCached(mineAgain)).toBe(false);
    expect(await mineAgain.text()).toContain(day);
  });

  it("tells only a browser whose session ended to clear its device: the shared page never carries that", async () => {
    const ended = await signedInBrowser(app, mail, "ended.session@example.com");
    const deadCookie = `__session=${ended.jar.get("__session")}`;
    await app.db.execute(
      sql`delete from sessions where user_id = (select id from users where email = 'ended.session@example.com')`,
    );
    const before = await get("/explore");
    const dead = await get("/explore", { Cookie: deadCookie });
    const after = await get("/explore");
    expect(dead.status).toBe(200);
    expect(isCached(dead)).toBe(false);
    expect(dead.headers.get("Clear-Site-Data")).toBe('"storage", "cache"');
    expect(dead.headers.getSetCookie().some((cookie) => /^__session=;.*Max-Age=0/i.test(cookie))).toBe(true);
    for (const shared of [before, after]) {
      expect(isCached(shared)).toBe(true);
      expect(shared.headers.get("Clear-Site-Data")).toBeNull();
      expect(shared.headers.getSetCookie()).toEqual([]);
    }
  });

  it("renders a visitor with a pending toast for them", async () => {
    await get("/form");
    const response = await get("/form", { Cookie: "toast=anything" });
    expect(response.status).toBe(200);
    expect(isCached(response)).toBe(false);
  });

  it("answers with the same page in br, gzip and identity, one ETag per encoding, and 304 when it is unchanged", async () => {
    const identity = await wire("/company/privacy", "identity");
    const br = await wire("/company/privacy", "gzip, deflate, br");
    const gzip = await wire("/company/privacy", "gzip;q=1, br;q=0");
    expect(identity.headers.get("Content-Encoding")).toBeNull();
    expect(br.headers.get("Content-Encoding")).toBe("br");
    expect(gzip.headers.get("Content-Encoding")).toBe("gzip");
    expect(brotliDecompressSync(br.bytes).equals(identity.bytes)).toBe(true);
    expect(gunzipSync(gzip.bytes).equals(identity.bytes)).toBe(true);
    for (const { headers } of [identity, br, gzip]) {
      expect(headers.get("Vary")).toContain("Accept-Encoding");
      expect(headers.get("Cache-Control")).toBe("public, max-age=0, must-revalidate");
    }
    const etags = [identity, br, gzip].map(({ headers }) => headers.get("ETag"));
    expect(new Set(etags).size).toBe(3);

    const unchanged = await get("/company/privacy", { "If-None-Match": etags[1]! });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe("");
    const changed = await get("/company/privacy", { "If-None-Match": '"something-else"' });
    expect(changed.status).toBe(200);

    const head = await get("/company/privacy", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("ETag")).toBe(etags[0]);
    expect(head.headers.get("Content-Length")).toBe(String(identity.bytes.length));
  });

  it("allows the shared page's inline scripts by hash, with no nonce left in the body", async () => {
    const response = await get("/");
    const csp = response.headers.get("Content-Security-Policy")!;
    const html = await response.text();
    expect(csp).not.toContain("'nonce-");
    // An empty nonce, which links carry on every page, is not one.
    expect(html).not.toMatch(/\bnonce="[^"]/);
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(([, content]) => content!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const content of scripts)
      expect(csp).toContain(`'sha256-${createHash("sha256").update(content).digest("base64")}'`);
  });

  it("keys /explore by its language and level only; any other query is rendered for the visitor", async () => {
    const a = await get("/explore?language=es&level=advanced");
    const b = await get("/explore?level=advanced&language=es");
    expect(isCached(a) && isCached(b)).toBe(true);
    expect(a.headers.get("ETag")).toBe(b.headers.get("ETag"));
    expect(a.headers.get("ETag")).not.toBe((await get("/explore?language=fr&level=advanced")).headers.get("ETag"));
    for (const uncached of [
      "/explore?utm_source=forum",
      "/explore?language=zz",
      "/explore?level=advanced&level=beginner",
      "/form?language=es",
    ]) {
      const response = await get(uncached);
      expect(response.status, uncached).toBe(200);
      expect(isCached(response), uncached).toBe(false);
    }
  });

  it("keeps basic HTML (Save-Data: on) apart from the full page", async () => {
    const full = await get("/form");
    const basic = await get("/form", { "Save-Data": "on" });
    expect(isCached(full) && isCached(basic)).toBe(true);
    expect(basic.headers.get("ETag")).not.toBe(full.headers.get("ETag"));
    expect(basic.headers.get("Vary")).toContain("Save-Data");
    expect(await basic.text()).not.toMatch(/<script|modulepreload/);
    expect(await full.text()).toMatch(/<script/);
  });

  it("keys pages by the theme cookie, and renders for a visitor whose sign-in link was just sent", async () => {
    const system = await get("/subscription");
    const dark = await get("/subscription", {
      Cookie: `theme=${Buffer.from(JSON.stringify("dark")).toString("base64")}`,
    });
    expect(isCached(system) && isCached(dark)).toBe(true);
    expect(dark.headers.get("ETag")).not.toBe(system.headers.get("ETag"));
    expect(await dark.text()).toContain('data-theme="dark"');
    expect(isCached(await get("/form", { Cookie: "sign-in-sent=anything" }))).toBe(false);
  });

  it("keeps the bare root's redirect by Accept-Language while English visitors and bots share its page", async () => {
    expect(isCached(await get("/", { "Accept-Language": "en" }))).toBe(true);
    const german = await get("/", { "Accept-Language": "de-DE,de;q=0.9" });
    expect(german.status).toBe(302);
    expect(german.headers.get("Location")).toBe("/de");
    const bot = await get("/", {
      "Accept-Language": "de",
      "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)",
    });
    expect(bot.status).toBe(200);
    expect(isCached(bot)).toBe(true);
  });

  it("shows changed public lists once the pages are invalidated", async () => {
    const before = await (await get("/explore?language=de&level=beginner")).text();
    await app.db.execute(
      sql`insert into public_terms (language, level, text, meanings, part_of_speech, example_sentence, position) values ('de', 'beginner', 'Zwischenablage', '{"en":"clipboard"}', 'noun', 'Kopiere es in die Zwischenablage.', 999)`,
    );
    expect(before).not.toContain("Zwischenablage");
    expect(await (await get("/explore?language=de&level=beginner")).text()).not.toContain("Zwischenablage");
    entry.invalidatePublicPages();
    expect(await (await get("/explore?language=de&level=beginner")).text()).toContain("Zwischenablage");
  });
});
