/**
 * The sounds a term may have (ADR 126): the formats every supported browser plays, known by their first bytes, never by
 * a file's name.
 */
export const SOUND_KINDS = ["mp3", "ogg", "m4a", "wav", "webm"] as const;
export type SoundKind = (typeof SOUND_KINDS)[number];

export const SOUND_TYPES: Record<SoundKind, string> = {
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  webm: "audio/webm",
};

/** The most one sound may weigh (a word or a sentence said aloud is a few dozen KB). */
export const MAX_SOUND_BYTES = 2 * 1024 * 1024;
/** The most a learner's sounds may weigh together, in all their languages. */
export const SOUNDS_PER_LEARNER_BYTES = 200 * 1024 * 1024;

export const isSoundKind = (value: unknown): value is SoundKind =>
  typeof value === "string" && (SOUND_KINDS as readonly string[]).includes(value);

/** The kind of a sound by its first bytes (at least 12), or null when it is none of SOUND_KINDS. */
export function soundKind(head: Uint8Array): SoundKind | null {
  const ascii = (from: number, text: string) => [...text].every((c, i) => head[from + i] === c.charCodeAt(0));
  if (ascii(0, "ID3")) return "mp3";
  // An MPEG audio frame: eleven sync bits, then a version and a layer that are not "reserved".
  if (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0 && ((head[1] ?? 0) & 0x06) !== 0) return "mp3";
  if (ascii(0, "OggS")) return "ogg";
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return "wav";
  if (ascii(4, "ftyp")) return "m4a";
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return "webm";
  return null;
}

/** The path a term's sound is served at: its hash makes the URL name these bytes for good. */
export const soundPath = (hash: string) => `/account/sounds/${hash}`;
