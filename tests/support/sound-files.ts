import { randomBytes } from "node:crypto";
import { noteTypeDeck, zip } from "./anki-files.ts";

/**
 * Tiny sounds with valid headers, written here byte by byte: a PCM WAV (RIFF), MPEG-1 Layer III frames and an Ogg
 * page. Enough for the app's checks of the first bytes and for a browser to accept the WAV.
 */

/** A mono 8 kHz 16-bit PCM WAV of `samples` samples of a square wave whose period depends on `tone`. */
export function wav(samples = 800, tone = 8): Buffer {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.floor(i / tone) % 2 ? 3000 : -3000, i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** `frames` MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each) of silence, without an ID3 tag. */
export function mp3(frames = 4, fill = 0): Buffer {
  const frame = Buffer.alloc(417, fill);
  frame.set([0xff, 0xfb, 0x90, 0x64], 0);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** One Ogg page holding `bytes` bytes (its header only is checked). */
export function ogg(bytes = 200): Buffer {
  const page = Buffer.alloc(27 + 1 + bytes);
  page.write("OggS", 0, "ascii");
  page.writeUInt8(2, 5); // first page of the stream
  page.writeUInt8(1, 26); // one segment
  page.writeUInt8(Math.min(bytes, 255), 27);
  return page;
}

/** A FLAC stream's first bytes: audio, but not a format every browser plays. */
export const flac = () => Buffer.concat([Buffer.from("fLaC"), Buffer.alloc(200)]);

/**
 * A Core-sized deck: `notes` notes (a word, its meaning, a sound field), the first `sounds` of them each naming its
 * own MP3 of `soundBytes` bytes of frames that do not compress (as real recordings do not), zipped with its media map.
 */
export function deckWithSounds(notes: number, sounds: number, soundBytes: number): Buffer {
  const rows = Array.from({ length: notes }, (_, n) => [
    `Wort${n}`,
    `word ${n}`,
    n < sounds ? `[sound:w${n}.mp3]` : "",
  ]);
  const media: [string, Buffer][] = Array.from({ length: sounds }, (_, n) => {
    const bytes = randomBytes(soundBytes);
    bytes.set([0xff, 0xfb, 0x90, 0x64], 0);
    return [String(n), bytes];
  });
  const map = Object.fromEntries(media.map(([entry], n) => [entry, `w${n}.mp3`]));
  return zip([
    ["collection.anki2", noteTypeDeck(["Front", "Back", "Audio"], rows)],
    ["media", Buffer.from(JSON.stringify(map))],
    ...media,
  ]);
}
