import { createHash } from "node:crypto";
import { desc, eq, lte } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { log } from "../server/log.server";
import { speechAudio } from "./speech.schema";
import { voiceLocale, type SpeechConfig } from "./speech-env";

/** The longest text the server reads aloud: a term, a meaning, an example or a sentence of a text. */
export const SPEECH_TEXT_MAX = 400;
/** The largest answer kept from the provider (a 400-character sentence at 48 kbit/s is well under it). */
export const SPEECH_AUDIO_MAX = 512 * 1024;
/** Rows the cache holds; past it the least recently used go (at most 10,000 × 512 KiB, typically a few MiB per 1,000). */
export const SPEECH_CACHE_ROWS = 10_000;
/** How long the provider may take to answer. */
const PROVIDER_TIMEOUT_MS = 15_000;
/** A row's last use is written again only when older than this, so that hits seldom write. */
const USED_AT_STEP_MS = 24 * 3600_000;
/** Azure's name for MP3 at 24 kHz, 48 kbit/s, mono: small, and every browser plays it. */
const OUTPUT_FORMAT = "audio-24khz-48kbitrate-mono-mp3";

export type SpeechAnswer = { audio: Buffer } | { problem: "noVoice" | "tooLong" | "provider" };

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** The request body Azure's text-to-speech REST API takes: SSML naming the voice and its locale. */
export function ssmlOf(voice: string, text: string): string {
  const locale = voiceLocale(voice);
  return `<speak version="1.0" xml:lang="${locale}"><voice xml:lang="${locale}" name="${voice}">${escapeXml(text)}</voice></speak>`;
}

export const speechHash = (voice: string, text: string) =>
  createHash("sha256").update(voice).update("\u0000").update(text).digest("hex");

/**
 * The audio of `text` in the configured voice of `language`: from the cache shared by every instance, else from the
 * provider (then cached). Nothing is cached when the provider fails; the caller answers 502 and the browser's voice
 * reads instead.
 */
export async function speechAudioFor(
  db: Database,
  config: SpeechConfig,
  language: string,
  text: string,
  now = new Date(),
): Promise<SpeechAnswer> {
  const voice = config.voices[language];
  if (!voice) return { problem: "noVoice" };
  if (text.length === 0 || text.length > SPEECH_TEXT_MAX) return { problem: "tooLong" };
  const hash = speechHash(voice, text);
  const [cached] = await db
    .select({ data: speechAudio.data, usedAt: speechAudio.usedAt })
    .from(speechAudio)
    .where(eq(speechAudio.hash, hash))
    .limit(1);
  if (cached) {
    if (now.getTime() - cached.usedAt.getTime() > USED_AT_STEP_MS)
      await db.update(speechAudio).set({ usedAt: now }).where(eq(speechAudio.hash, hash));
    return { audio: cached.data };
  }
  const audio = await synthesize(config, voice, text);
  if (!audio) return { problem: "provider" };
  await db.insert(speechAudio).values({ hash, voice, size: audio.length, data: audio }).onConflictDoNothing();
  await pruneSpeechCache(db);
  return { audio };
}

/** Keeps the SPEECH_CACHE_ROWS most recently used rows. */
export async function pruneSpeechCache(db: Database, keep = SPEECH_CACHE_ROWS): Promise<void> {
  const [edge] = await db
    .select({ usedAt: speechAudio.usedAt })
    .from(speechAudio)
    .orderBy(desc(speechAudio.usedAt))
    .offset(keep)
    .limit(1);
  if (!edge) return;
  // That row and any older: at most `keep` stay.
  await db.delete(speechAudio).where(lte(speechAudio.usedAt, edge.usedAt));
}

/** One POST to the provider; null on any failure (logged without the text or the key). */
async function synthesize(config: SpeechConfig, voice: string, text: string): Promise<Buffer | null> {
  try {
    const response = await fetch(config.url, {
      method: "POST",
      headers: {
        "Ocp-Apim-Subscription-Key": config.key,
        "Content-Type": "application/ssml+xml",
        "X-Microsoft-OutputFormat": OUTPUT_FORMAT,
        "User-Agent": "polyglot",
      },
      body: ssmlOf(voice, text),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    if (!response.ok || !response.body) {
      log.warn("speech provider refused", { status: response.status, voice });
      await response.body?.cancel();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > SPEECH_AUDIO_MAX) {
        log.warn("speech provider answer too large", { voice, bytes: size });
        return null;
      }
      chunks.push(Buffer.from(chunk));
    }
    return size > 0 ? Buffer.concat(chunks) : null;
  } catch (error) {
    log.warn("speech provider failed", { voice, error: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/** The server's voices for these languages (what the page's player or Listen needs); empty without a provider. */
export function serverVoicesFor(config: SpeechConfig | null, languages: string[]): Record<string, string> {
  if (!config) return {};
  return Object.fromEntries(languages.filter((l) => config.voices[l]).map((l) => [l, config.voices[l]!]));
}
