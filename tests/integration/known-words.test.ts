/**
 * "Mark the rest of this page as known" on a full page (500 new words) answers quickly and never holds the event loop:
 * one insert of known words, no terms (ADR 105). Against the production server on its embedded database; needs
 * `npm run build`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { loopDuring, LOOP_BOUND_MS } from "../support/loop-watch.ts";
import { getPage, postForm, signInThroughLog } from "../support/raw-http.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";

let server: ServerProcess;
let cookie: string;

beforeAll(async () => {
  server = await startServer();
  ({ cookie } = await signInThroughLog(server, `known-${process.pid}@example.test`));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** A word of letters only (the reader counts no word with digits): the n-th of aa, ab, …, in a fixed frame. */
const wordOf = (n: number) =>
  `wort${String.fromCharCode(97 + (Math.floor(n / 26 / 26) % 26))}${String.fromCharCode(97 + (Math.floor(n / 26) % 26))}${String.fromCharCode(97 + (n % 26))}`;

it("marks 500 new words of one page as known in under 300 ms, no turn of the event loop held past the bound", async () => {
  const words = Array.from({ length: 500 }, (_, i) => wordOf(i));
  const sentences = Array.from({ length: 50 }, (_, s) => `${words.slice(s * 10, s * 10 + 10).join(" ")}.`);
  const created = await postForm(
    server,
    "/account/texts/new",
    { title: "Lang", body: sentences.join(" ") },
    { Cookie: cookie },
  );
  expect(created.status).toBe(302);
  const textPath = String(created.headers.location).split("?")[0]!;
  const page = await getPage(server, textPath, { Cookie: cookie });
  expect(page.status).toBe(200);
  expect(page.body.match(/class="word w-new"/g)?.length).toBe(500);

  const report = await loopDuring(server, () =>
    postForm(server, textPath, { intent: "markKnown", page: "1" }, { Cookie: cookie }),
  );
  expect(report.result.status).toBe(302);
  console.info(
    `marking 500 words known: answered in ${report.wallMs.toFixed(0)} ms (${report.cpuMs.toFixed(0)} ms of server ` +
      `CPU), longest turn held ${report.heldMs} ms`,
  );
  expect(report.blocked).toEqual([]);
  expect(report.heldMs).toBeLessThanOrEqual(LOOP_BOUND_MS);
  expect(report.serverMs).toBeLessThan(300);

  const after = await getPage(server, `${textPath}?page=1`, { Cookie: cookie });
  expect(after.body.match(/class="word w-ignored"/g)?.length).toBe(500);
  expect(after.body).not.toContain('class="word w-new"');
});
