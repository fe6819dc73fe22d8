import type { Cookie } from "react-router";
import { cookieSignedWith } from "../http/cookies.server";
import { env } from "../config/env.server";
import { BASIC_MODES } from "../http/basic-mode";
import { basicModeCookie } from "../http/basic-mode.server";
import { STUDY_LANGUAGES } from "../learning/vocabulary";
import { studyLanguageCookie } from "../learning/preferences.server";
import { reviewShortcutsCookie } from "../learning/review-shortcuts.server";
import { THEMES } from "../theme/theme";
import { themeCookie } from "../theme/theme.server";

/**
 * The cookies that change what a visitor sees on a kept page, with every value they can hold. A cache keys pages by
 * them, so only these values may become part of a key: any other value (junk, a forged or foreign signature) counts as
 * absent, as the app itself reads it, and cannot make a new entry.
 */
const VARIANTS: { cookie: Cookie; values: readonly string[]; signed: boolean }[] = [
  { cookie: studyLanguageCookie, values: STUDY_LANGUAGES, signed: true },
  { cookie: basicModeCookie, values: BASIC_MODES, signed: true },
  { cookie: themeCookie, values: THEMES, signed: false },
  // The review page's keyboard shortcuts: what its hints show.
  { cookie: reviewShortcutsCookie, values: ["on", "off"], signed: false },
];

export const VARIANT_COOKIES = VARIANTS.map(({ cookie }) => cookie.name);

/**
 * Per cookie name, each raw value the app reads as valid: "current" when written as the app writes it now, "retired"
 * when signed with a retired key of SESSION_SECRET (still valid; the app renews it in its answer).
 */
let known: Map<string, Map<string, "current" | "retired">> | null = null;
let building: Promise<void> | null = null;

const rawOf = async (cookie: Cookie, value: string) => {
  const header = await cookie.serialize(value);
  return header.slice(cookie.name.length + 1, header.indexOf(";"));
};

async function build(): Promise<void> {
  const table = new Map<string, Map<string, "current" | "retired">>();
  for (const { cookie, values, signed } of VARIANTS) {
    const raws = new Map<string, "current" | "retired">();
    const retired = signed ? env.sessionSecrets.slice(1).map((key) => cookieSignedWith(cookie.name, {}, [key])) : [];
    for (const value of values) {
      for (const older of retired) raws.set(await rawOf(older, value), "retired");
      raws.set(await rawOf(cookie, value), "current");
    }
    table.set(cookie.name, raws);
  }
  known = table;
}

/** Starts computing the table of valid values (a few hundred signatures); cheap to call again. */
export function prepareVariantCookies(): Promise<void> {
  building ??= build();
  return building;
}

/**
 * The variant cookies of a request in a fixed order, each only when its value is one the app writes (`name=raw; …`,
 * "" when none); any other value counts as absent. Null when the request must take the usual way: a value signed with
 * a retired key (the answer renews it), or the table of valid values not computed yet.
 */
export function canonicalVariantCookies(cookies: Map<string, string>): string | null {
  if (!known) {
    void prepareVariantCookies();
    return null;
  }
  const parts: string[] = [];
  for (const name of VARIANT_COOKIES) {
    const raw = cookies.get(name);
    const kind = raw === undefined ? undefined : known.get(name)!.get(raw);
    if (kind === "retired") return null;
    if (kind === "current") parts.push(`${name}=${raw}`);
  }
  return parts.join("; ");
}
