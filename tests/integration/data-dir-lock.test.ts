/**
 * The data directory lock (app/db/lock.server.ts) between real processes: a dead owner's socket is taken over at once,
 * and when several processes start together on such a directory exactly one of them wins.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../support/temp.ts";
import { afterEach, describe, expect, it } from "vitest";

const LOCK_MODULE = path.resolve(import.meta.dirname, "../../app/db/lock.server.ts");
const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A process that takes the lock, prints the outcome and holds it for `holdMs`. */
function locker(dir: string, holdMs: number) {
  const script = `
    const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});
    try { await lockDataDir(${JSON.stringify(dir)}); console.log("locked"); setTimeout(() => {}, ${holdMs}); }
    catch (error) { console.log(error.message); process.exitCode = 1; }`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const firstLine = new Promise<string>((resolve) => {
    child.stdout!.on("data", () => output.includes("\n") && resolve(output.split("\n")[0]!));
    child.once("exit", () => resolve(output.split("\n")[0] ?? ""));
  });
  return { child, firstLine };
}

describe("data directory lock between processes", () => {
  it("is taken over at once after its owner was killed with SIGKILL", async () => {
    const dir = tempDir("lock-unit");
    dirs.push(dir);
    const owner = locker(dir, 60_000);
    expect(await owner.firstLine).toBe("locked");
    const refused = locker(dir, 0);
    expect(await refused.firstLine).toContain(`DATA_DIR ${dir} is in use by process ${owner.child.pid}`);
    owner.child.kill("SIGKILL");
    await new Promise((resolve) => owner.child.once("exit", resolve));
    expect(await locker(dir, 0).firstLine).toBe("locked");
  });

  it("lets exactly one of several processes starting together win over a dead owner's socket", async () => {
    const dir = tempDir("lock-unit");
    dirs.push(dir);
    const dead = locker(dir, 60_000);
    expect(await dead.firstLine).toBe("locked");
    dead.child.kill("SIGKILL");
    await new Promise((resolve) => dead.child.once("exit", resolve));

    const outcomes = await Promise.all(Array.from({ length: 4 }, () => locker(dir, 5_000).firstLine));
    expect(outcomes.filter((line) => line === "locked")).toHaveLength(1);
    expect(outcomes.filter((line) => line.includes("is in use by process"))).toHaveLength(3);
  });
});
