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

type InputProps = Awaited<ReturnType<Honeypot["getInputProps"]>>;
let current: { second: number; props: Promise<InputProps> } | null = null;

/**
 * The honeypot fields of a page. Encrypting the timestamp is WebCrypto work on every render, so pages rendered within
 * the same second share one value (the time of that second's start: never later than the render, so never "future").
 */
export function honeypotInputProps(): Promise<InputProps> {
  const second = Math.floor(Date.now() / 1000);
  if (current?.second !== second) {
    const props = honeypot.getInputProps({ validFromTimestamp: second * 1000 });
    current = { second, props };
    // A failure is not remembered: the next render tries again.
    props.catch(() => {
      if (current?.props === props) current = null;
    });
  }
  return current.props;
}

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
