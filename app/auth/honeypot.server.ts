import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { env } from "../config/env.server";

/** A field people never see; a form that fills it is a bot's. Seeded by SESSION_SECRET so every instance agrees. */
export const honeypot = new Honeypot({ encryptionSeed: env.sessionSecrets[0] });

export async function isSpam(form: FormData): Promise<boolean> {
  try {
    await honeypot.check(form);
    return false;
  } catch (error) {
    if (error instanceof SpamError) return true;
    throw error;
  }
}
