import type { Route } from "./+types/($lang).account.speech";
import { env } from "../config/env.server";
import { getDatabase } from "../db/db.server";
import { getInstance } from "../i18n/i18n.server";
import { requireLearner } from "../learning/learner.server";
import { speechAudioFor } from "../player/speech-provider.server";

/**
 * A text read aloud by the server's text-to-speech provider (ADR 140), for the player and the reader's Listen:
 * `?lang=de&voice=de-DE-KatjaNeural&text=…`. The voice is in the address, so a new voice makes new addresses and the
 * browser may keep each answer for a year.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireLearner(context);
  const { t } = getInstance(context);
  const refuse = (status: number, key: string) =>
    new Response(t(key), {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  const config = env.speech;
  const query = new URL(request.url).searchParams;
  const language = query.get("lang") ?? "";
  const voice = query.get("voice") ?? "";
  const text = query.get("text") ?? "";
  if (!config || !config.voices[language] || config.voices[language] !== voice)
    return refuse(404, "common:speech.noVoice");
  const answer = await speechAudioFor(await getDatabase(), config, language, text);
  if ("problem" in answer)
    return answer.problem === "tooLong"
      ? refuse(400, "common:speech.tooLong")
      : answer.problem === "noVoice"
        ? refuse(404, "common:speech.noVoice")
        : refuse(502, "common:speech.provider");
  return new Response(request.method === "HEAD" ? null : new Uint8Array(answer.audio), {
    headers: {
      "Content-Type": "audio/mpeg",
      "Content-Length": String(answer.audio.length),
      // Personal (behind the session), so only the browser keeps it; no-transform keeps compression off its bytes.
      "Cache-Control": "private, max-age=31536000, immutable, no-transform",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
