import type { TFunction } from "i18next";
import type { Transporter } from "nodemailer";
import { env } from "../config/env.server";
import { log } from "../server/log.server";
import { retry } from "../server/retry";

/**
 * Deadlines for the mail server: nodemailer's defaults wait minutes, and a sign-in request waits for the send. Three
 * attempts of at most a few seconds each, and the whole send within SEND_DEADLINE_MS.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 5_000 };
export const SEND_DEADLINE_MS = 10_000;

let transport: Transporter | null = null;
/** nodemailer is loaded with the first message, not at start. */
async function getTransport(): Promise<Transporter | null> {
  if (!env.SMTP_URL) return null;
  const { createTransport } = await import("nodemailer");
  transport ??= createTransport({ url: env.SMTP_URL, ...SMTP_TIMEOUTS });
  return transport;
}

// Said once, when the server starts.
if (env.authProvider === "local" && !env.SMTP_URL) {
  log.warn("SMTP_URL is not set: sign-in links are written to this log instead of being e-mailed");
}

const CONNECTION_ERRORS = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ECONNRESET", "ECONNREFUSED"]);

/** Repeat only what cannot have delivered a message: connection failures and temporary (4xx) refusals. */
function isRetryable(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  if (typeof responseCode === "number") return responseCode >= 400 && responseCode < 500;
  return typeof code === "string" && CONNECTION_ERRORS.has(code);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in message, in the language of the request that asked for it, as plain text and HTML. */
export function signInMessage(t: TFunction, link: string) {
  const subject = t("mail:subject");
  const lines = [t("mail:greeting"), "", t("mail:body"), "", link, "", t("mail:expiry"), t("mail:ignore")];
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1d24">
<p>${escapeHtml(t("mail:greeting"))}</p><p>${escapeHtml(t("mail:body"))}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(t("mail:button"))}</a></p>
<p style="color:#4a5160;font-size:14px">${escapeHtml(t("mail:expiry"))} ${escapeHtml(t("mail:ignore"))}</p>
<p style="color:#4a5160;font-size:12px;word-break:break-all">${escapeHtml(link)}</p></body></html>`;
  return { subject, text: lines.join("\n"), html };
}

export async function sendSignInMail(to: string, t: TFunction, link: string, language: string): Promise<void> {
  const smtp = await getTransport();
  if (!smtp) {
    log.warn("sign-in link (no SMTP_URL configured)", { to, link });
    return;
  }
  await deliver(smtp, { to, language, ...signInMessage(t, link) });
}

/** A plain notice (already translated, one paragraph per non-empty line) as text and HTML. */
export async function sendMail(message: { to: string; subject: string; lines: string[]; language: string }) {
  const smtp = await getTransport();
  if (!smtp) {
    log.info("mail not sent (no SMTP_URL configured)", { to: message.to, subject: message.subject });
    return;
  }
  const paragraphs = message.lines.filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`);
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1d24">${paragraphs.join("")}</body></html>`;
  await deliver(smtp, { ...message, text: message.lines.join("\n"), html });
}

type Outgoing = { to: string; subject: string; text: string; html: string; language: string };

/** Sends with retries, within SEND_DEADLINE_MS. */
async function deliver(smtp: Transporter, { language, ...message }: Outgoing): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`mail not sent within ${SEND_DEADLINE_MS} ms`), { code: "ETIMEDOUT" })),
      SEND_DEADLINE_MS,
    );
  });
  const send = retry(
    () =>
      smtp.sendMail({
        from: env.MAIL_FROM ?? "Polyglot <no-reply@localhost>",
        ...message,
        headers: { "Content-Language": language },
      }),
    { retryable: isRetryable },
  );
  try {
    await Promise.race([send, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
