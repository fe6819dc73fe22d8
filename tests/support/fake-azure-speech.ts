import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A protocol-level fake of Azure AI Speech's text-to-speech REST API (`POST /cognitiveservices/v1`): the key in
 * `Ocp-Apim-Subscription-Key`, SSML in, audio in the asked format out. The audio is a stand-in: "ID3" and the voice and
 * text it was asked for, so a test can tell which answer it got. Not our code path, only the service on the other end.
 */
export const FAKE_SPEECH_KEY = "fake-speech-key-0123456789";

export type SpeechRequest = { key: string | undefined; format: string | undefined; voice: string; text: string };

const unescapeXml = (text: string) =>
  text.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, name: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[name]!,
  );

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/** The audio the fake answers for a voice and a text. */
export const fakeAudio = (voice: string, text: string) => Buffer.from(`ID3${voice}|${text}`, "utf8");

export async function startFakeAzureSpeech() {
  const requests: SpeechRequest[] = [];
  /** The status the next answers have (200: audio). */
  let status = 200;
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method !== "POST" || req.url !== "/cognitiveservices/v1") {
        res.writeHead(404).end();
        return;
      }
      const match = /<voice xml:lang="([^"]+)" name="([^"]+)">([\s\S]*)<\/voice>/.exec(body);
      const key = req.headers["ocp-apim-subscription-key"] as string | undefined;
      const format = req.headers["x-microsoft-outputformat"] as string | undefined;
      requests.push({ key, format, voice: match?.[2] ?? "", text: unescapeXml(match?.[3] ?? "") });
      if (key !== FAKE_SPEECH_KEY) return void res.writeHead(401).end();
      if (!match || req.headers["content-type"] !== "application/ssml+xml") return void res.writeHead(400).end();
      if (status !== 200) return void res.writeHead(status).end();
      const audio = fakeAudio(match[2]!, unescapeXml(match[3]!));
      res.writeHead(200, { "Content-Type": "audio/mpeg", "Content-Length": audio.length }).end(audio);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    failWith: (code: number) => {
      status = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
