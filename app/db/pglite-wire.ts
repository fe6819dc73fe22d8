// The messages between the app and the embedded database's thread (pglite-worker.ts, pglite-client.server.ts).

/** What of drizzle's query options crosses to the thread: functions cannot, so the types it keeps as text are named. */
export type WireQueryOptions = { rowMode?: "array" | "object"; rawTypes?: number[] };

export type PgliteRequest =
  | { id: number; op: "query"; tx: number | null; sql: string; params?: unknown[]; options?: WireQueryOptions }
  | { id: number; op: "begin" }
  | { id: number; op: "end"; tx: number; commit: boolean }
  | { id: number; op: "close" };

/** An error as it crosses: the message, and PostgreSQL's fields (code, constraint, detail…). */
export type WireError = { message: string; name?: string; fields: Record<string, unknown> };

export type PgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** The thread's first message: the database is open and migrated, or could not be. */
export type PgliteReady = { ready: true } | { ready: false; error: WireError };

/**
 * A learner's row changed or went, announced by the database at commit: "<id>", or "<id> <data version>" when only
 * that moved (drizzle/0021, 0022).
 */
export type PgliteLearnerChanged = { learnerChanged: string };
