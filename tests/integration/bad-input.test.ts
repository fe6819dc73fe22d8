/**
 * Bad input and open doors, against the production server (`node server.ts`): each case answered 500, redirected
 * off-site or let something through before. Needs `npm run build`.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createCookie } from "react-router";
import { Honeypot } from "remix-utils/honeypot/server";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import {
  cookiesOf,
  getPage,
  honeypotFields,
  postForm,
  rawRequest,
  signInThroughLog,
  type RawResponse,
} from "../support/raw-http.ts";
import {
  BROWSER_USER_AGENT,
  PROJECT_ROOT,
  startServer,
  TEST_SESSION_SECRET,
  type ServerProcess,
} from "../support/server-process.ts";

const RETIRED_KEY = "a-retired-session-key-0123456789abcdef";
let server: ServerProcess;
let databaseUrl: string;
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${process.pid}-${counter++}@example.test`;
const h1 = (response: RawResponse) => response.body.match(/<h1>([^<]*)<\/h1>/)?.[1];

beforeAll(async () => {
  // One proxy in front (as in compose.yaml); the current key signs, the retired one still verifies.
  databaseUrl = await createDatabase(inject("pgUrl"), `bad_input_${process.pid}_${Date.now()}`);
  server = await startServer({
    env: { DATABASE_URL: databaseUrl, TRUST_PROXY: "1", SESSION_SECRET: `${TEST_SESSION_SECRET},${RETIRED_KEY}` },
  });
});
afterAll(async () => {
  await server?.stop();
});

describe("redirects never leave the site", () => {
  it.each(["/en//evil.example", "/en/.//x", "/en/\\x", "/en/\\/x", "/en/%2F%2Fevil.example", "/en//evil.example?x=1"])(
    "answers %s with a 404 page, not a redirect to another host",
    async (rawPath) => {
      const response = await getPage(server, rawPath);
      expect(response.headers.location).toBeUndefined();
      expect(response.status).toBe(404);
    },
  );

  it("still moves /en/explore?x=1 to /explore?x=1 permanently", async () => {
    const response = await getPage(server, "/en/explore?x=1");
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe("/explore?x=1");
  });
});

describe("requests the site does not take", () => {
  it.each(["OPTIONS", "PROPFIND", "TRACE", "PUT", "DELETE", "PATCH"])(
    "answers %s / with 405 and Allow",
    async (method) => {
      const response = await rawRequest(server, { method, path: "/", headers: { "User-Agent": BROWSER_USER_AGENT } });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD, POST");
    },
  );

  const bodies: [string, string, string, number][] = [
    ["JSON", "application/json", '{"email":"a@b.example"}', 415],
    ["text/plain", "text/plain", "email=a@b.example", 415],
    ["broken multipart", "multipart/form-data; boundary=xyz", "--xyz\r\nContent-Disposition: form-da", 400],
  ];
  for (const target of ["/de/form", "/locale", "/preferences", "/de/logout", "/de/confirm"]) {
    it.each(bodies)(`answers a %s body to ${target} with a translated 4xx page`, async (_name, type, body, status) => {
      const response = await rawRequest(server, {
        method: "POST",
        path: target,
        headers: {
          "User-Agent": BROWSER_USER_AGENT,
          Origin: server.baseUrl,
          "Content-Type": type,
          Accept: "text/html",
        },
        body,
      });
      expect(response.status).toBe(status);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      if (target.startsWith("/de/")) expect(response.body).toContain('<html lang="de"');
    });
  }

  it.each(["/basic-mode", "/theme"])("answers an unknown choice posted to %s with a translated 400", async (target) => {
    const response = await rawRequest(server, {
      method: "POST",
      path: target,
      headers: {
        "User-Agent": BROWSER_USER_AGENT,
        Origin: server.baseUrl,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "mode=sparkly&theme=sparkly&redirectTo=%2F",
    });
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(h1(response)).toBe("The request could not be understood.");
  });

  it("refuses a body over 64 KiB with 413 before reading it, declared or streamed, on every form", async () => {
    for (const target of ["/form", "/de/form", "/locale", "/preferences", "/logout"]) {
      const headers = {
        "User-Agent": BROWSER_USER_AGENT,
        Origin: server.baseUrl,
        "Content-Type": "application/x-www-form-urlencoded",
      };
      // Declares 8 MiB but sends only the first bytes: the answer must come without the rest.
      const declared = await rawRequest(server, {
        method: "POST",
        path: target,
        headers: { ...headers, "Content-Length": String(8 * 1024 * 1024) },
        holdBody: true,
      });
      expect(declared.status, target).toBe(413);
      const streamed = await rawRequest(server, {
        method: "POST",
        path: target,
        headers,
        body: `email=${"a".repeat(70 * 1024)}`,
        chunked: true,
      });
      expect(streamed.status, target).toBe(413);
    }
    const german = await rawRequest(server, {
      method: "POST",
      path: "/de/form",
      headers: {
        "User-Agent": BROWSER_USER_AGENT,
        Origin: server.baseUrl,
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": "70000",
      },
      holdBody: true,
    });
    expect(german.status).toBe(413);
    expect(h1(german)).toBe("Die Anfrage war zu groß. Formulare nehmen hier höchstens 64 KB an.");
  });

  it("answers a cross-site POST with the 403 page in the visitor's language", async () => {
    for (const origin of ["http://evil.example", "null", "not a url", ""]) {
      const response = await postForm(server, "/de/form", { email: "x@example.test" }, { Origin: origin });
      expect(response.status, origin).toBe(403);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(h1(response)).toBe("Diese Anfrage wurde abgelehnt, weil sie nicht von dieser Website stammt.");
    }
  });

  it("does not serve the raw prerendered files", async () => {
    for (const rawPath of ["/company/privacy/index.html", "/de/company/privacy/index.html", "/index.html"]) {
      const response = await getPage(server, rawPath);
      expect(response.status, rawPath).toBe(404);
      expect(response.body).not.toContain("prerender.invalid");
    }
    expect((await getPage(server, "/company/privacy")).status).toBe(200);
  });
});

describe("the honeypot", () => {
  const linkLogged = (email: string) =>
    server.logs().some((l) => l.json?.message === "sign-in link (no SMTP_URL configured)" && l.json.to === email);

  it("treats left-out honeypot fields like a filled one: the same answer, nothing sent", async () => {
    const email = uniqueEmail("no-honeypot");
    const response = await postForm(server, "/form", { email });
    expect(response.status).toBe(302);
    expect(cookiesOf(response).has("toast")).toBe(true);
    const { from__confirm } = await honeypotFields(server);
    await postForm(server, "/form", { email, from__confirm: from__confirm! });
    await postForm(server, "/form", { email, name__confirm: "" });
    await server.waitForLog((l) => l.json?.message === "request" && l.json.method === "POST" && l.json.status === 302);
    expect(linkLogged(email)).toBe(false);
  });

  it("asks to send again a form whose timestamp it cannot read (another key, or garbage), and sends nothing", async () => {
    const foreign = await new Honeypot({ encryptionSeed: "another-deployment-key-0123456789abcdef" }).getInputProps();
    for (const from of [foreign.encryptedValidFrom, "zzz", "a".repeat(500)]) {
      const email = uniqueEmail("stale");
      const response = await postForm(server, "/de/form", { email, name__confirm: "", from__confirm: from });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe("/de/form");
      const page = await getPage(server, "/de/form", { Cookie: `toast=${cookiesOf(response).get("toast")}` });
      expect(page.body).toContain("Bitte erneut senden");
      expect(linkLogged(email)).toBe(false);
    }
    expect(server.logs().filter((l) => l.json?.level === "error")).toEqual([]);
  });
});

describe("signed in", () => {
  it("names the address on the confirm page and never submits it by script; GET keeps the link usable", async () => {
    const email = uniqueEmail("confirm");
    const fields = await honeypotFields(server);
    const started = server.logs().length;
    await postForm(server, "/de/form", { ...fields, email });
    const line = await server.waitForLog(
      (l) =>
        server.logs().indexOf(l) >= started &&
        l.json?.message === "sign-in link (no SMTP_URL configured)" &&
        l.json.to === email,
    );
    const link = new URL(String(line.json?.link));
    for (let i = 0; i < 2; i++) {
      const page = await getPage(server, link.pathname + link.search);
      expect(page.status).toBe(200);
      expect(page.body).toContain(`Du meldest dich als ${email} an.`);
      expect(page.headers["cache-control"]).toBe("private, no-store");
    }
    const unknown = await getPage(server, "/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    expect(unknown.body).toContain("This link has expired or has already been used.");
    // The confirm route's browser code has no script that submits the form.
    const assets = path.join(PROJECT_ROOT, "build/client/assets");
    const confirmChunks = readdirSync(assets).filter((file) => file.includes("confirm") && file.endsWith(".js"));
    expect(confirmChunks.length).toBeGreaterThan(0);
    for (const file of confirmChunks)
      expect(readFileSync(path.join(assets, file), "utf8")).not.toMatch(/requestSubmit|\.submit\(\)/);
    const confirmed = await postForm(server, link.pathname, { token: link.searchParams.get("token")! });
    expect(confirmed.status).toBe(302);
    expect(cookiesOf(confirmed).has("__session")).toBe(true);
  });

  it("answers a term id of 36 dashes with 404, not a database error", async () => {
    const { cookie } = await signInThroughLog(server, uniqueEmail("dashes"));
    const dashes = "-".repeat(36);
    expect((await getPage(server, `/account/terms/${dashes}`, { Cookie: cookie })).status).toBe(404);
    expect((await postForm(server, `/account/terms/${dashes}`, { intent: "delete" }, { Cookie: cookie })).status).toBe(
      404,
    );
    expect(
      (await postForm(server, "/account/review", { grade: "good", termId: dashes }, { Cookie: cookie })).status,
    ).toBe(404);
    const nul = await postForm(
      server,
      "/account/terms/new",
      {
        text: "a\u0000b",
        meaning: "\u0000",
        partOfSpeech: "noun",
        notes: "\u0000",
        sentence: "\u0000",
        translation: "",
      },
      { Cookie: cookie },
    );
    expect(nul.status).toBeLessThan(500);
    const search = await getPage(server, "/account/explore/member?q=%00", { Cookie: cookie });
    expect(search.status).toBeLessThan(500);
    const added = await postForm(
      server,
      "/account/explore/public",
      { intent: "add", termId: dashes },
      { Cookie: cookie },
    );
    expect(added.status).toBeLessThan(500);
    expect(server.logs().filter((l) => l.json?.level === "error")).toEqual([]);
  });

  it("marks personal responses private and varying by cookie", async () => {
    const { cookie } = await signInThroughLog(server, uniqueEmail("cache"));
    const responses = [
      await getPage(server, "/account/home", { Cookie: cookie }),
      await getPage(server, "/account/home.data", { Cookie: cookie }),
      await getPage(server, "/explore", { Cookie: cookie }),
      await getPage(server, "/confirm?token=abc"),
      await postForm(server, "/locale", { lng: "de", redirectTo: "/" }),
      await getPage(server, "/account/home"),
    ];
    for (const response of responses) {
      expect(response.headers["cache-control"]).toBe("private, no-store");
      expect(String(response.headers.vary)).toMatch(/\bCookie\b/);
    }
    // The anonymous prerendered page stays shareable.
    expect((await getPage(server, "/company/privacy")).headers["cache-control"]).toBe(
      "public, max-age=0, must-revalidate",
    );
  });

  it("signs out everywhere: every session of the learner ends, with a translated toast", async () => {
    const email = uniqueEmail("everywhere");
    const first = await signInThroughLog(server, email);
    // Past My home's welcome; "sign out everywhere" is on the profile page.
    await postForm(server, "/account/home", { intent: "skip" }, { Cookie: first.cookie });
    // A second device: another session row of the same learner (a second link would hit the per-address limit).
    const secondId = randomBytes(32).toString("base64url");
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        "insert into sessions (id_hash, user_id, expires_at) select $1, id, now() + interval '1 day' from users where email = $2",
        [createHash("sha256").update(secondId).digest("base64url"), email],
      );
    } finally {
      await client.end();
    }
    const second = {
      cookie: (await createCookie("__session", { secrets: [TEST_SESSION_SECRET] }).serialize(secondId)).split(
        ";",
        1,
      )[0]!,
    };
    expect((await getPage(server, "/account/home", { Cookie: second.cookie })).status).toBe(200);
    const profile = await getPage(server, "/de/account/profile", { Cookie: first.cookie });
    expect(profile.body).toContain("Überall abmelden");
    const out = await postForm(server, "/de/logout", { intent: "everywhere" }, { Cookie: first.cookie });
    expect(out.status).toBe(302);
    expect(cookiesOf(out).get("__session")).toBe("");
    const landing = await getPage(server, out.headers.location as string, {
      Cookie: `toast=${cookiesOf(out).get("toast")}`,
    });
    expect(landing.body).toContain("Überall abgemeldet");
    for (const { cookie } of [first, second]) {
      const response = await getPage(server, "/account/home", { Cookie: cookie });
      expect(response.status).toBe(302);
      expect(response.headers.location).toMatch(/^\/form/);
    }
  });

  it("re-signs a cookie signed with a retired key with the current key", async () => {
    const { cookie } = await signInThroughLog(server, uniqueEmail("rotate"));
    const current = createCookie("__session", { secrets: [TEST_SESSION_SECRET] });
    const id = await current.parse(cookie);
    const retired = createCookie("__session", { secrets: [RETIRED_KEY] });
    const oldCookie = (await retired.serialize(id)).split(";", 1)[0]!;
    const oldLanguage = (await createCookie("studyLanguage", { secrets: [RETIRED_KEY] }).serialize("fr")).split(
      ";",
      1,
    )[0]!;
    const response = await getPage(server, "/account/home", { Cookie: `${oldCookie}; ${oldLanguage}` });
    expect(response.status).toBe(200);
    const renewed = cookiesOf(response);
    expect(await current.parse(`__session=${renewed.get("__session")}`)).toBe(id);
    // The anonymous study-language cookie too.
    const anonymous = cookiesOf(await getPage(server, "/explore", { Cookie: oldLanguage }));
    expect(
      await createCookie("studyLanguage", { secrets: [TEST_SESSION_SECRET] }).parse(
        `studyLanguage=${anonymous.get("studyLanguage")}`,
      ),
    ).toBe("fr");
  });
});

describe("TRUST_PROXY=1: the address the proxy saw, not the one the client wrote", () => {
  it("rate-limits one client even when it forges the left-most X-Forwarded-For", async () => {
    const fields = await honeypotFields(server);
    // The client writes any address it likes; the proxy appends the one it saw. 20 an hour per client IP.
    const send = (i: number) =>
      postForm(
        server,
        "/form",
        { ...fields, email: uniqueEmail(`xff${i}`) },
        { "X-Forwarded-For": `10.9.${i}.1, 203.0.113.77` },
      );
    for (let i = 0; i < 20; i++) expect((await send(i)).status).toBe(302);
    const refused = await send(20);
    const page = await getPage(server, "/form", { Cookie: `toast=${cookiesOf(refused).get("toast")}` });
    expect(page.body).toContain("Too many requests");
    // Request lines reach stdout in batches (every 20 ms): the last one may still be on its way.
    await vi.waitFor(() =>
      expect(server.logs().filter((l) => l.json?.message === "request" && l.json.ip === "203.0.113.77").length).toBe(
        21,
      ),
    );
  });
});
