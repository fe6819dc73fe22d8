import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ReceivedMail } from "../support/mail-sink";

/** The sign-in mail sent to an address, read from the SMTP sink that global-setup runs (one JSON file a message). */
export async function mailFor(address: string, timeoutMs = 15_000): Promise<ReceivedMail> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: global-setup starts the SMTP sink");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let files: string[] = [];
    try {
      // Whole messages only (the sink renames each to .json once written).
      files = readdirSync(dir)
        .filter((file) => file.endsWith(".json"))
        .sort();
    } catch {
      // no message yet
    }
    for (const file of files.reverse()) {
      const mail = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ReceivedMail;
      if (mail.to.includes(address)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no mail for ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function linkIn(mail: ReceivedMail): string {
  const match = mail.text.match(/https?:\/\/\S+\/confirm\?\S+/);
  if (!match) throw new Error(`no sign-in link in: ${mail.text}`);
  return match[0];
}

/** A fresh address per test, so rate limits and mails never mix between tests. */
export function uniqueAddress(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/**
 * A client address per test, as a proxy on loopback would append it (the e2e server has TRUST_PROXY=loopback, so the
 * right-most address counts; the left-most is what a client could forge). Per-IP sign-in limits stay per test.
 */
export function forwardedFor(): Record<string, string> {
  return {
    "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 250) + 1}, 10.0.0.${Math.floor(Math.random() * 250) + 1}`,
  };
}
