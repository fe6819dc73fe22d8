import { rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { AppServer } from "../../app/app-server.server";
import { BROWSER_USER_AGENT } from "../../scripts/support/app-process.ts";
import { tempDir } from "./temp.ts";
import { captureLogLine } from "./test-logs.ts";

/** A regular browser: headless and command-line clients count as bots, which the app treats differently. */
export const BROWSER_UA = BROWSER_USER_AGENT;
export const APP_URL = "http://localhost:3999";

export type TestDatabase = {
  execute: (query: unknown) => Promise<{ rows: Record<string, unknown>[] }>;
  transaction: <T>(run: (tx: Pick<TestDatabase, "execute">) => Promise<T>) => Promise<T>;
};

/**
 * The production build loaded in this test process with its own configuration, answering real Requests through the
 * whole middleware chain, as server.ts does. `npm run build` must have run (the test script does it first).
 */
export async function startApp(env: Record<string, string | undefined> = {}) {
  const dataDir = tempDir("it");
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  Object.assign(process.env, {
    APP_URL,
    DATA_DIR: dataDir,
    SESSION_SECRET: "integration-secret-0123456789",
    APP_STAGE: "test",
    LOG_LEVEL: "info",
    ...env,
  });
  const buildPath = path.resolve(import.meta.dirname, "../../build/server/index.js");
  let entry: AppServer;
  let handler: ReturnType<typeof createRequestHandler>;
  let db: TestDatabase;
  try {
    const build = (await import(buildPath)) as ServerBuild;
    entry = (build.entry.module as unknown as { appServer: AppServer }).appServer;
    entry.setLogSink(captureLogLine);
    handler = createRequestHandler(build, "production");
    db = (await entry.start()) as unknown as TestDatabase;
  } catch (error) {
    removeDataDir();
    throw error;
  }

  /** A cookie jar per simulated browser. */
  function browser(ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`, userAgent = BROWSER_UA) {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    async function request(pathname: string, init: RequestInit & { form?: Record<string, string> } = {}) {
      const headers = new Headers(init.headers);
      headers.set("User-Agent", headers.get("User-Agent") ?? userAgent);
      if (jar.size) headers.set("Cookie", cookieHeader());
      let body = init.body;
      if (init.form) {
        body = new URLSearchParams(init.form);
        headers.set("Content-Type", "application/x-www-form-urlencoded");
        if (!headers.has("Origin")) headers.set("Origin", APP_URL);
      }
      const response = await handler(
        new Request(APP_URL + pathname, { ...init, headers, body, redirect: "manual" }),
        entry.createLoadContext(ip),
      );
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = "", ...attributes] = cookie.split(";");
        const [name = "", ...value] = pair.split("=");
        const expired = attributes.some(
          (a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()),
        );
        if (expired) jar.delete(name.trim());
        else jar.set(name.trim(), value.join("="));
      }
      return response;
    }
    return {
      jar,
      request,
      /** GETs a page and returns its HTML. */
      async page(pathname: string) {
        const response = await request(pathname);
        return { response, html: await response.text() };
      },
      /** Submits the sign-in form as a browser would: the honeypot fields come from the rendered page. */
      async requestSignIn(email: string, formPath = "/form") {
        const { html } = await this.page(formPath);
        const validFrom = html.match(/name="from__confirm" value="([^"]+)"/)?.[1] ?? "";
        return request(formPath, { method: "POST", form: { email, name__confirm: "", from__confirm: validFrom } });
      },
    };
  }

  /** Closes the database and removes the data directory. */
  const stop = async () => {
    try {
      await entry.shutdown();
    } finally {
      removeDataDir();
    }
  };
  /** Forgets cached public pages and shipped data, as after a change of that data. */
  const invalidatePublicPages = () => entry.invalidatePublicPages();
  /** What `GET /readyz` runs: resolves when every dependency answers. */
  const checkHealth = () => entry.checkHealth();
  /** The announcements of learner changes the app hears (its own module's, not a copy imported by the test). */
  const learnerChanges = () => entry.learnerChangesOf(db);
  return { db, browser, dataDir, stop, invalidatePublicPages, checkHealth, learnerChanges };
}

/** The toasts rendered on a page: [title, description] pairs. */
export function toastsIn(html: string): [string, string][] {
  return [...html.matchAll(/<li class="toast[^"]*"[^>]*><div><strong>([^<]*)<\/strong><p>([^<]*)<\/p>/g)].map((m) => [
    m[1]!,
    m[2]!,
  ]);
}

/**
 * A browser signed in through the real flow: the form, the e-mail from the SMTP sink, the confirm POST. My home's
 * welcome is skipped as a learner would (its "Skip" button), so My home shows the dashboard, unless `welcome` is
 * "keep".
 */
export async function signedInBrowser(
  app: Awaited<ReturnType<typeof startApp>>,
  mail: { waitFor: (address: string, after?: number) => Promise<{ text: string }> },
  email: string,
  userAgent = BROWSER_UA,
  { welcome = "skip" }: { welcome?: "skip" | "keep" } = {},
) {
  const browser = app.browser(undefined, userAgent);
  const started = Date.now();
  await browser.requestSignIn(email);
  const message = await mail.waitFor(email, started);
  const link = new URL(message.text.match(/https?:\/\/\S+\/confirm\?\S+/)![0]);
  const response = await browser.request(link.pathname, {
    method: "POST",
    form: { token: link.searchParams.get("token")! },
  });
  if (response.status !== 302) throw new Error(`sign-in failed: ${response.status}`);
  await browser.page(response.headers.get("Location")!);
  if (welcome === "skip") {
    const skipped = await browser.request("/account/home", { method: "POST", form: { intent: "skip" } });
    if (skipped.status !== 302) throw new Error(`skipping the welcome failed: ${skipped.status}`);
  }
  return browser;
}

type SignedInBrowser = Awaited<ReturnType<typeof signedInBrowser>>;

/** A new learner signed in through the real flow, with their user id. */
export async function signedInLearner(
  app: Awaited<ReturnType<typeof startApp>>,
  mail: Parameters<typeof signedInBrowser>[1],
  name: string,
): Promise<{ browser: SignedInBrowser; id: string }> {
  const email = `${name}-${Date.now()}@example.com`;
  const browser = await signedInBrowser(app, mail, email);
  const { rows } = await app.db.execute(sql`select id from users where email = ${email}`);
  return { browser, id: String(rows[0]!.id) };
}

/** Uploads a package (or any file) to the import page as the form does, under a locale prefix if given. */
export function uploadPackage(browser: SignedInBrowser, bytes: Buffer, prefix = "") {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("file", new File([new Uint8Array(bytes)], "deck.apkg", { type: "application/octet-stream" }));
  form.set("pasted", "");
  return browser.request(`${prefix}/account/import`, { method: "POST", body: form, headers: { Origin: APP_URL } });
}

/** Text content of an HTML fragment (tags removed, entities of quotes decoded). */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}
