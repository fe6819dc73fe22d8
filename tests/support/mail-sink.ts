import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  language: string | null;
  receivedAt: number;
};

/**
 * A real SMTP server on loopback that keeps what it receives (and, with `dir`, writes each message there as JSON for
 * other processes). Recipients whose address contains "refuse" are rejected with a permanent 550; those containing
 * "stall" never get an answer (a mail server that hangs).
 */
export async function startMailSink(options: { dir?: string; port?: number } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.includes("stall")) return;
      if (address.address.includes("refuse")) {
        const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((a) =>
            a.value.map((v) => v.address ?? ""),
          );
          const mail: ReceivedMail = {
            to,
            from: parsed.from?.text ?? "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            language: (parsed.headers.get("content-language") as string | undefined) ?? null,
            receivedAt: Date.now(),
          };
          received.push(mail);
          if (options.dir) {
            mkdirSync(options.dir, { recursive: true });
            // Written whole under another name, then renamed: a reader polling the folder never sees half a message.
            const file = path.join(options.dir, `${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
            writeFileSync(`${file}.partial`, JSON.stringify(mail));
            renameSync(`${file}.partial`, file);
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The newest message to an address, waiting for it to arrive. */
    async waitFor(address: string, after = 0, timeoutMs = 10_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = [...received].reverse().find((m) => m.to.includes(address) && m.receivedAt >= after);
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail for ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-in link in a message. */
export function signInLink(mail: ReceivedMail): string {
  const match = mail.text.match(/https?:\/\/\S+\/confirm\?\S+/);
  if (!match) throw new Error(`no sign-in link in: ${mail.text}`);
  return match[0];
}
