import type { Route } from "./+types/($lang).account.sounds.$hash";
import { getDatabase } from "../db/db.server";
import { requireLearner } from "../learning/learner.server";
import { SOUND_TYPES } from "../learning/sounds";
import { findSound } from "../learning/sounds.server";
import { byteRange } from "../http/byte-range";

/**
 * A learner's sound (ADR 126), by the SHA-256 of its bytes: the URL names these bytes for good, so the browser keeps
 * it for a year without asking again. Range requests are answered (206) as media elements make them.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = requireLearner(context);
  const missing = () => new Response(null, { status: 404, headers: { "Cache-Control": "private, no-store" } });
  if (!/^[0-9a-f]{64}$/.test(params.hash)) return missing();
  const sound = await findSound(await getDatabase(), user.id, params.hash);
  if (!sound) return missing();
  const size = sound.data.length;
  const headers = new Headers({
    "Content-Type": SOUND_TYPES[sound.kind],
    "Accept-Ranges": "bytes",
    // Personal (behind the session), so only the browser keeps it; no-transform keeps compression off its bytes.
    "Cache-Control": "private, max-age=31536000, immutable, no-transform",
    ETag: `"${params.hash}"`,
    "Content-Disposition": "inline",
    "X-Content-Type-Options": "nosniff",
  });
  const range = byteRange(request.headers.get("Range"), size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  if (!range) {
    headers.set("Content-Length", String(size));
    return new Response(request.method === "HEAD" ? null : new Uint8Array(sound.data), { status: 200, headers });
  }
  const [start, end] = range;
  headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  headers.set("Content-Length", String(end - start + 1));
  const body = request.method === "HEAD" ? null : new Uint8Array(sound.data.subarray(start, end + 1));
  return new Response(body, { status: 206, headers });
}
