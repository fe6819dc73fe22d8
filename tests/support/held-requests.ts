import { connect, type Socket } from "node:net";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fills the server's bound on requests in flight with requests that stay there: each a POST whose headers promise a
 * body that never comes, so the server works on it (waiting for the body) until the socket is closed. A held request
 * the server refused (it arrived while another one was in flight) is replaced, until `probe` (a request of the
 * caller's) is refused with 503 while exactly `count` are held. `release` closes them all.
 */
export async function holdRequests(port: number, count: number, probe: () => Promise<number>, path = "/form") {
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
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nemail=",
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
