import { z } from "zod";

/**
 * The server's text-to-speech provider in the configuration contract (ADR 140), validated with the rest in
 * app/config/env.server.ts: Azure AI Speech's text-to-speech REST API. Unset, the player and the reader use the
 * browser's voices only.
 */
const optional = <T extends z.ZodType>(type: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), type.optional());

export const speechEnvShape = {
  /** The Speech resource's key (Azure portal: the resource → Keys and Endpoint). */
  AZURE_SPEECH_KEY: optional(z.string().trim().min(1)),
  /** The resource's region, e.g. westeurope: the API is https://<region>.tts.speech.microsoft.com. */
  AZURE_SPEECH_REGION: optional(z.string().regex(/^[a-z0-9]+$/, "is a region name such as westeurope")),
  /** Another address for the same API (a sovereign cloud, a proxy); it wins over the region. */
  AZURE_SPEECH_URL: optional(z.url()),
  /** Which voice reads which language: `de=de-DE-KatjaNeural,en=en-US-JennyNeural`. */
  AZURE_SPEECH_VOICES: optional(z.string()),
};

type SpeechInput = { [K in keyof typeof speechEnvShape]?: z.output<(typeof speechEnvShape)[K]> };

/** A voice's name starts with its locale (`de-DE-KatjaNeural`), which the request's SSML names too. */
const VOICE = /^([a-z]{2,3}-[A-Z]{2,4}(?:-[A-Za-z]+)?)-[A-Za-z0-9]+$/;
const LANGUAGE = /^[a-z]{2,3}$/;

/** `de=de-DE-KatjaNeural,…` as a map from language to voice; a string saying what is wrong otherwise. */
export function parseSpeechVoices(value: string): Record<string, string> | string {
  const voices: Record<string, string> = {};
  for (const entry of value.split(",").map((part) => part.trim())) {
    if (!entry) continue;
    const [language = "", voice = "", ...rest] = entry.split("=").map((part) => part.trim());
    if (rest.length > 0 || !LANGUAGE.test(language) || !VOICE.test(voice))
      return `expects language=voice pairs such as de=de-DE-KatjaNeural, not ${JSON.stringify(entry)}`;
    voices[language] = voice;
  }
  return Object.keys(voices).length > 0 ? voices : "names no voice (language=voice pairs such as de=de-DE-KatjaNeural)";
}

/** The key, an address and the voices go together; any of them alone is a mistake worth stopping for. */
export function checkSpeechEnv(env: SpeechInput, issue: (path: string, message: string) => void): void {
  const any = env.AZURE_SPEECH_KEY || env.AZURE_SPEECH_REGION || env.AZURE_SPEECH_URL || env.AZURE_SPEECH_VOICES;
  if (!any) return;
  if (!env.AZURE_SPEECH_KEY) issue("AZURE_SPEECH_KEY", "is required for the server's voices (AZURE_SPEECH_*)");
  if (!env.AZURE_SPEECH_REGION && !env.AZURE_SPEECH_URL)
    issue("AZURE_SPEECH_REGION", "is required for the server's voices (or AZURE_SPEECH_URL)");
  if (!env.AZURE_SPEECH_VOICES) issue("AZURE_SPEECH_VOICES", "is required for the server's voices");
  else {
    const voices = parseSpeechVoices(env.AZURE_SPEECH_VOICES);
    if (typeof voices === "string") issue("AZURE_SPEECH_VOICES", voices);
  }
}

export type SpeechConfig = { url: string; key: string; voices: Record<string, string> };

/** The provider's settings once checked; null without one. */
export function speechConfig(env: SpeechInput): SpeechConfig | null {
  if (!env.AZURE_SPEECH_KEY || !env.AZURE_SPEECH_VOICES) return null;
  const voices = parseSpeechVoices(env.AZURE_SPEECH_VOICES);
  if (typeof voices === "string") return null;
  const base = env.AZURE_SPEECH_URL ?? `https://${env.AZURE_SPEECH_REGION}.tts.speech.microsoft.com`;
  return { url: new URL("/cognitiveservices/v1", base).href, key: env.AZURE_SPEECH_KEY, voices };
}

/** The locale a voice speaks (`de-DE` of `de-DE-KatjaNeural`). */
export const voiceLocale = (voice: string) => VOICE.exec(voice)?.[1] ?? voice;
