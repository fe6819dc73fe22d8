import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Something the configuration wants said once when the server starts. */
export type StartupNote = { level: "info" | "warn"; message: string; fields?: Record<string, unknown> };

export const SECRET_FILE = ".session-secret";

type Settings = {
  SESSION_SECRET?: string;
  APP_STAGE: string;
  NODE_ENV: string;
  DATA_DIR: string;
  DATABASE_URL?: string;
};

const randomSecret = () => randomBytes(32).toString("hex");

/**
 * The keys that sign cookies. SESSION_SECRET when given (a comma-separated list rotates keys; production requires it).
 * Otherwise a restart should not sign everyone out: outside tests the secret is kept in DATA_DIR/.session-secret
 * (created with mode 0600 on first start). Tests get a random key per process, and so does a server
 * whose data directory cannot hold the file (DATABASE_URL and no DATA_DIR folder, or a read-only one): it says so.
 */
export function resolveSessionSecrets(settings: Settings): { secrets: string[]; note: StartupNote | null } {
  if (settings.SESSION_SECRET) {
    return {
      secrets: settings.SESSION_SECRET.split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      note: null,
    };
  }
  if (settings.APP_STAGE === "test" || settings.NODE_ENV === "test") return { secrets: [randomSecret()], note: null };

  const dir = path.resolve(settings.DATA_DIR);
  const file = path.join(dir, SECRET_FILE);
  const ephemeral = (reason: string): { secrets: string[]; note: StartupNote } => ({
    secrets: [randomSecret()],
    note: {
      level: "warn",
      message: `SESSION_SECRET is not set and ${reason}: a random one for this process signs everyone out at restart; set SESSION_SECRET`,
    },
  });
  // The database lives elsewhere: a data directory is not made just for this file, but one that exists is used.
  if (settings.DATABASE_URL && !existsSync(dir))
    return ephemeral(`DATABASE_URL is used and there is no data directory ${dir} to keep one in`);
  try {
    const exists = existsSync(file);
    const kept = exists ? readFileSync(file, "utf8").trim() : "";
    if (kept.length >= 32)
      return {
        secrets: [kept],
        note: {
          level: "info",
          message: "session secret read from the data directory (SESSION_SECRET is not set)",
          fields: { file },
        },
      };
    mkdirSync(dir, { recursive: true });
    const secret = randomSecret();
    // "wx": of two instances starting together on one directory, the second reads what the first wrote.
    try {
      writeFileSync(file, secret + "\n", { mode: 0o600, flag: exists ? "w" : "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return resolveSessionSecrets(settings);
      throw error;
    }
    return {
      secrets: [secret],
      note: {
        level: "info",
        message:
          "session secret created in the data directory; restarts keep sessions (set SESSION_SECRET in production)",
        fields: { file },
      },
    };
  } catch (error) {
    return ephemeral(`${file} cannot be used (${error instanceof Error ? error.message : String(error)})`);
  }
}
