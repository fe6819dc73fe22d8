/**
 * Starts the built server once as the image's first start would (an empty DATA_DIR, the template copied in), asks for
 * /readyz and the home page, and stops it with SIGTERM. Run with NODE_COMPILE_CACHE set, it leaves Node's compiled
 * code of every module that took part in that directory, so later starts read it instead of parsing the modules again.
 * The image does this at build time, as the runtime's user and at the runtime's paths (see Dockerfile).
 *
 *   NODE_COMPILE_CACHE=DIR node scripts/warm-start.ts TEMPLATE_DIR
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const [templateDir] = process.argv.slice(2);
if (!templateDir || !process.env.NODE_COMPILE_CACHE) {
  console.error("usage: NODE_COMPILE_CACHE=DIR node scripts/warm-start.ts TEMPLATE_DIR");
  process.exit(2);
}
const PORT = 3999;
const dataDir = mkdtempSync(path.join(tmpdir(), "warm-start-"));
const server = spawn(process.execPath, [path.join(import.meta.dirname, "..", "server.ts")], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DATA_TEMPLATE_DIR: path.resolve(templateDir),
    // A key for this run only, so no secret file is written.
    SESSION_SECRET: "warm-start-only-0123456789abcdef0123456789",
    LOG_LEVEL: "warn",
  },
  stdio: "inherit",
});
const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));

async function answered(pathname: string): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${PORT}${pathname}`)).ok;
  } catch {
    return false;
  }
}

try {
  const deadline = Date.now() + 60_000;
  while (!(await answered("/readyz"))) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error("the server did not become healthy");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!(await answered("/"))) throw new Error("the home page did not answer 200");
} finally {
  server.kill("SIGTERM");
  const code = await exited;
  rmSync(dataDir, { recursive: true, force: true });
  if (code !== 0) process.exitCode = 1;
}
console.log("server started, answered and stopped: its compiled modules are cached");
