import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { cookieSignedWith } from "#app/http/cookies.server.ts";

const OPTIONS = { path: "/", httpOnly: true, sameSite: "lax" as const, maxAge: 60 };
const CURRENT = "current-key-0123456789abcdef0123456789abcdef";
const RETIRED = "retired-key-0123456789abcdef0123456789abcdef";

/** The `name=value` part of a Set-Cookie header, as the browser sends it back. */
const sentBack = (setCookie: string) => setCookie.slice(0, setCookie.indexOf(";"));

describe("signed cookies", () => {
  const ours = cookieSignedWith("toast", OPTIONS, [CURRENT, RETIRED]);
  const reactRouters = createCookie("toast", { ...OPTIONS, secrets: [CURRENT, RETIRED] });
  const values: unknown[] = ["on", "de", { email: "a@example.test", at: 1764750000000 }, ["ü", "✓", 3], 0, true];

  it("are written byte for byte as React Router writes them, attributes included", async () => {
    for (const value of values) {
      expect(await ours.serialize(value)).toBe(await reactRouters.serialize(value));
      expect(await ours.serialize(value, { maxAge: 5 })).toBe(await reactRouters.serialize(value, { maxAge: 5 }));
    }
    expect(await ours.serialize("", { maxAge: 0 })).toBe(await reactRouters.serialize("", { maxAge: 0 }));
  });

  it("read what React Router wrote, and React Router reads what they write", async () => {
    for (const value of values) {
      expect(await ours.parse(sentBack(await reactRouters.serialize(value)))).toEqual(value);
      expect(await reactRouters.parse(sentBack(await ours.serialize(value)))).toEqual(value);
    }
  });

  it("read a value signed with a retired key, and write with the current one only", async () => {
    const retiredOnly = cookieSignedWith("toast", OPTIONS, [RETIRED]);
    const written = sentBack(await retiredOnly.serialize("de"));
    expect(await ours.parse(written)).toBe("de");
    expect(await cookieSignedWith("toast", OPTIONS, [CURRENT]).parse(written)).toBeNull();
    expect(await createCookie("toast", { secrets: [CURRENT] }).parse(sentBack(await ours.serialize("de")))).toBe("de");
  });

  it("count a tampered, foreign, unsigned or absent value as no cookie, and an empty one as empty", async () => {
    const written = sentBack(await ours.serialize({ user: "a" }));
    const [name, raw] = [written.slice(0, written.indexOf("=")), written.slice(written.indexOf("=") + 1)];
    const value = decodeURIComponent(raw);
    const forged = `${name}=${encodeURIComponent(`${btoa(JSON.stringify({ user: "b" }))}${value.slice(value.lastIndexOf("."))}`)}`;
    const cases = [
      forged,
      `${name}=${encodeURIComponent(value.slice(0, -2))}`,
      sentBack(await cookieSignedWith("toast", OPTIONS, ["another-key-0123456789abcdef0123456789ab"]).serialize("x")),
      sentBack(await createCookie("toast").serialize("x")),
      "other=1; theme=dark",
      `${name}=%zz`,
    ];
    for (const header of cases) {
      expect(await ours.parse(header)).toBeNull();
      expect(await reactRouters.parse(header)).toBeNull();
    }
    expect(await ours.parse(null)).toBeNull();
    expect(await ours.parse(`${name}=`)).toBe("");
    // The first cookie of a name is the one read, as React Router's parser takes it.
    expect(await ours.parse(`theme=dark; ${written}; ${name}=junk`)).toEqual({ user: "a" });
    expect(await ours.parse(`${name}=junk; ${written}`)).toBeNull();
  });
});
