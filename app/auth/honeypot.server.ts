import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { env } from "../config/env.server";

const NAME_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";

/** A field people never see; a form that fills it is a bot's. Seeded by SESSION_SECRET so every instance agrees. */
export const honeypot = new Honeypot({
  encryptionSeed: env.sessionSecrets[0],
  nameFieldName: NAME_FIELD,
  validFromFieldName: VALID_FROM_FIELD,
});

export type HoneypotVerdict = "human" | "spam" | "stale";

/**
 * `spam` when the hidden field is filled or either field is left out (the library would skip its check then);
 * `stale` when the form's timestamp cannot be read: rendered before a restart or a SESSION_SECRET rotation (or
 * forged), so the person is asked to send it again.
 */
export async function checkHoneypot(form: FormData): Promise<HoneypotVerdict> {
  if (!form.has(NAME_FIELD) || !form.has(VALID_FROM_FIELD)) return "spam";
  try {
    await honeypot.check(form);
    return "human";
  } catch (error) {
    if (error instanceof SpamError) return error.message === "Invalid honeypot valid from input" ? "stale" : "spam";
    // Decryption itself failed: a timestamp under another key, or not one at all.
    return "stale";
  }
}
