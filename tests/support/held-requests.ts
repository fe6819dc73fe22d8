import { connect, type Socket } from "node:net";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fills the server's bound on requests in flight with requests that stay there: each an upload to the import, by the
 * learner whose session `cookie` names, whose headers promise a file larger than a form that never comes; an upload is
 * admitted before its body arrives (app/edge/body-admission.server.ts), so the server works on it (waiting for the
 * body) until the socket is closed. A held request the server refused (it arrived while another one was in flight) is
 * replaced, until `probe` (a request of the caller's) is refused with 503 while exactly `count` are held. `release`
 * closes them all. At most UPLOADS_AT_ONCE requests can be held so.
 */
export async function holdRequests(port: number, count: number, probe: () => Promise<number>, cookie: string) {
  const held = new Set<Socket>();
  const release = () => held.forEach((socket) => socket.destroy());
  const hold = async () => {
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    socket.on("error", () => {});
    // Any answer means it is not held: refused, or answered.
    socket.once("data", () => {
      held.delete(socket);
      socket.destroy();
    });
    socket.write(
      `POST /account/import HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Cookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=held\r\n` +
        `Content-Length: ${1024 * 1024}\r\n\r\n--held\r\n`,
    );
    held.add(socket);
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    while (held.size < count) await hold();
    await sleep(100);
    if (held.size === count && (await probe()) === 503 && held.size === count) return { release };
  }
  release();
  throw new Error(`could not hold ${count} requests in flight`);
}
