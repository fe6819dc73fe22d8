import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, lt, ne, sql } from "drizzle-orm";
import { createContext, type MiddlewareFunction } from "react-router";
import { getDatabase, type Database } from "../db/db.server";
import { preparedPerDatabase } from "../db/built-once";
import { memo } from "../util/memo";
import { learnerChangesOf, type LearnerChanges } from "../db/learner-changes";
import { OwnerBoundedCache } from "../edge/owner-bounded-cache";
import { sessions, users } from "./auth.schema";
import { learnerTag, requestLogContext } from "../server/request-log.server";
import { isSignedWithRetiredKey, readCookie, setsCookie, signedCookie } from "../http/cookies.server";

/** About 400 days, the longest lifetime browsers accept for a cookie. */
export const SESSION_MAX_AGE_S = 400 * 24 * 60 * 60;

export type User = typeof users.$inferSelect;

/** The cookie holding a signed-in learner's session. */
export const SESSION_COOKIE = "__session";
const sessionCookie = signedCookie(SESSION_COOKIE, { maxAge: SESSION_MAX_AGE_S });

/**
 * Where the database announces after commit (PostgreSQL): "<learner id> <data version>" as the learner's last write
 * left it, so whichever instance answers their next request reads their row again if what it keeps is older, before
 * the announcement reaches it.
 */
export const LEARNER_VERSION_COOKIE = "learner-version";
const learnerVersionCookie = signedCookie(LEARNER_VERSION_COOKIE);

/** The learner and data version a request's cookie names (null if it names none, or a forged one). */
async function versionSeen(request: Request | string): Promise<{ id: string; version: number } | null> {
  const header = typeof request === "string" ? request : (request.headers.get("Cookie") ?? "");
  if (!header.includes(`${LEARNER_VERSION_COOKIE}=`)) return null;
  const value = await readCookie<string>(learnerVersionCookie, header);
  const [id = "", version = ""] = typeof value === "string" ? value.split(" ") : [];
  const number = Number(version);
  if (!id || !Number.isSafeInteger(number)) return null;
  return { id, version: number };
}

/** The signed-in learner, or null; set once per request by the session middleware. */
export const userContext = createContext<User | null>(null);

/**
 * The learner the edge found for a request's session cookie while looking for a kept page of theirs (none was kept):
 * the session middleware takes it instead of reading the same row again. Only a found learner is handed on.
 */
export const checkedUserContext = createContext<User | null>(null);
const checkedAtEdge = new WeakMap<object, User>();
export const handOnCheckedUser = (req: object, user: User) => void checkedAtEdge.set(req, user);
export const checkedUserOf = (req: object): User | null => checkedAtEdge.get(req) ?? null;

/** A session id as the database keeps it (its SHA-256), remembered for the sessions that keep coming back. */
const hashId = memo(5_000, (id) => createHash("sha256").update(id).digest("base64url"));

/** How stale a session's "last seen" may get: one write per session every few minutes, not one per request. */
export const LAST_SEEN_INTERVAL_MS = 5 * 60 * 1000;

/** Starts a session for a user: a row named by the hash of a random id, and a cookie carrying that id. */
export async function createSession(db: Database, userId: string, userAgent = ""): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    idHash: hashId(id),
    userId,
    userAgent: userAgent.slice(0, 500),
    expiresAt: new Date(Date.now() + SESSION_MAX_AGE_S * 1000),
  });
  // Ended sessions of this user are removed while we are here.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date())));
  return sessionCookie.serialize(id);
}

/** Ends the session of the request (row deleted) and returns the header that clears its cookie. */
export async function destroySession(db: Database, request: Request): Promise<string> {
  const id = await readCookie<string>(sessionCookie, request);
  if (typeof id === "string") await db.delete(sessions).where(eq(sessions.idHash, hashId(id)));
  return sessionCookie.serialize("", { maxAge: 0 });
}

/** Ends every session of a learner, on every device ("sign out everywhere"); returns how many there were. */
export async function destroyAllSessions(db: Database, userId: string): Promise<number> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ idHash: sessions.idHash });
  return deleted.length;
}

export type SessionSummary = { id: string; userAgent: string; createdAt: Date; lastSeenAt: Date; current: boolean };

/** A learner's open sessions, the most recently seen first; `current` marks the one of this request. */
export async function sessionsOf(db: Database, userId: string, request: Request): Promise<SessionSummary[]> {
  const currentHash = await currentSessionHash(request);
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt));
  return rows.map((row) => ({
    id: row.idHash,
    userAgent: row.userAgent,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    current: row.idHash === currentHash,
  }));
}

/** Ends one session of a learner (named by its row id, as `sessionsOf` lists it); false when there is none. */
export async function destroySessionOf(db: Database, userId: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.idHash, sessionId)))
    .returning({ idHash: sessions.idHash });
  return deleted.length > 0;
}

/** Ends every session of a learner except the one of this request; returns how many ended. */
export async function destroyOtherSessions(db: Database, userId: string, request: Request): Promise<number> {
  const currentHash = (await currentSessionHash(request)) ?? "";
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.idHash, currentHash)))
    .returning({ idHash: sessions.idHash });
  return deleted.length;
}

async function currentSessionHash(request: Request): Promise<string | null> {
  const id = await readCookie<string>(sessionCookie, request);
  return typeof id === "string" && id ? hashId(id) : null;
}

/** The header that clears the session cookie of this browser. */
export function clearSessionCookie(): Promise<string> {
  return sessionCookie.serialize("", { maxAge: 0 });
}

/** The session lookup every signed-in request makes, its SQL built once per database (drizzle's prepared query). */
const sessionLookup = preparedPerDatabase((db) =>
  db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder("idHash")), gt(sessions.expiresAt, sql.placeholder("now"))))
    .limit(1)
    .prepare("session_lookup"),
);

/** Methods that write nothing (the others are forms sent). */
const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** A session's row and its learner's, as read; `bytes` counts entries for the store. */
type KeptSession = { user: User; lastSeenAt: Date; expiresAt: Date; bytes: 1 };
/** Sessions kept in memory at most, and per learner (their devices). */
const SESSIONS_KEPT = 20_000;
const SESSIONS_KEPT_PER_LEARNER = 50;

/**
 * Sessions kept in memory where the database announces every change of a learner's row (drizzle/0021; the embedded
 * one at commit, PostgreSQL through each instance's listening connection): each is valid until an announcement names
 * its learner, which every write of theirs, a sign-in and a sign-out make. An announcement of a new data version alone
 * (a write of their data, a sign-in elsewhere; drizzle/0022) moves the version kept instead; any other (a session
 * ended, their row changed) forgets their sessions. While announcements are not heard (PostgreSQL's listener away),
 * everything kept is forgotten and each request reads its session again. Null for a database that announces nothing.
 */
const keptSessionsOf = new WeakMap<Database, { kept: OwnerBoundedCache<KeptSession>; changes: LearnerChanges }>();
function sessionMemory(db: Database) {
  let memory = keptSessionsOf.get(db);
  if (memory) return memory;
  const changes = learnerChangesOf(db);
  if (!changes) return null;
  const kept = new OwnerBoundedCache<KeptSession>({
    entries: SESSIONS_KEPT,
    bytes: SESSIONS_KEPT,
    perOwner: SESSIONS_KEPT_PER_LEARNER,
  });
  changes.subscribe(
    ({ learnerId, dataVersion }) => {
      if (dataVersion === null) return kept.deleteOwner(learnerId);
      // Only the version of their data moved (a write of theirs): what a read would give now, without the read.
      for (const key of kept.keysOf(learnerId)) {
        const session = kept.get(key)!;
        if (session.user.dataVersion >= dataVersion) continue;
        session.user = Object.freeze({ ...session.user, dataVersion });
      }
    },
    () => kept.clear(),
  );
  keptSessionsOf.set(db, (memory = { kept, changes }));
  return memory;
}

/**
 * After a learner's own write (a form sent), on a database that announces shortly after commit (PostgreSQL): their
 * sessions kept here are forgotten and this one read again as the write left it, so this instance's next answer shows
 * the write; the version read goes to the browser (LEARNER_VERSION_COOKIE), so another instance's does too. Null
 * where announcements arrive before the write returns (the embedded database), or when the session has ended.
 */
export async function versionAfterWrite(db: Database, sessionId: string, learnerId: string): Promise<number | null> {
  const memory = sessionMemory(db);
  if (!memory || memory.changes.atCommit) return null;
  memory.kept.deleteOwner(learnerId);
  // The write is done whatever happens now: a failed read (the database went away) only leaves the cookie unset.
  const user = await userOfSession(db, sessionId).catch(() => null);
  return user?.id === learnerId ? user.dataVersion : null;
}

/** The user a session id names; an unknown or expired one means signed out. */
async function userOfSession(
  db: Database,
  id: string,
  seen: { id: string; version: number } | null = null,
  now = new Date(),
): Promise<User | null> {
  const idHash = hashId(id);
  const memory = sessionMemory(db);
  const kept = memory?.changes.keeping ? memory.kept.get(idHash) : undefined;
  const current = !seen || seen.id !== kept?.user.id || kept.user.dataVersion >= seen.version;
  if (kept && kept.expiresAt > now && current) {
    // The least recently used session is the first pushed out, as in the stores of kept pages.
    memory!.kept.touch(idHash);
    if (now.getTime() - kept.lastSeenAt.getTime() >= LAST_SEEN_INTERVAL_MS) {
      kept.lastSeenAt = now;
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
    }
    return kept.user;
  }
  if (kept) memory!.kept.delete(idHash);
  const announced = memory?.changes.count;
  const [row] = await sessionLookup(db).execute({ idHash, now });
  if (row && now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
    row.lastSeenAt = now;
  }
  // Kept only when no announcement while it was read may have changed it: one of its learner's might have come after
  // the read. Other learners' writes, however many, leave it kept.
  if (row && memory?.changes.keeping && !memory.changes.changedSince(announced!, row.user.id, row.user.dataVersion))
    memory.kept.set(row.user.id, idHash, { ...row, user: Object.freeze(row.user), bytes: 1 });
  return row?.user ?? null;
}

/**
 * The learner a Cookie header's session names, for answers given before the framework sees the request; null when
 * signed out, or when the response would have to re-sign the cookie (signed with a retired key).
 */
export async function learnerOfCookieHeader(db: Database, cookieHeader: string): Promise<User | null> {
  const id = await readCookie<string>(sessionCookie, cookieHeader);
  if (typeof id !== "string" || !id || (await isSignedWithRetiredKey(sessionCookie, cookieHeader))) return null;
  return userOfSession(db, id, await versionSeen(cookieHeader));
}

/** The user a request's session cookie names; a tampered, unknown or expired cookie means signed out. */
export async function sessionUser(db: Database, request: Request): Promise<User | null> {
  const id = await readCookie<string>(sessionCookie, request);
  return typeof id === "string" && id ? userOfSession(db, id, await versionSeen(request)) : null;
}

/**
 * What a browser is told when its learner's session ended (ADR 096): clear what the learner's device stored for the
 * offline review (IndexedDB, Cache Storage, the service worker) and the HTTP cache. Never "cookies": the toast cookie
 * of the answer and the visitor's preferences stay.
 */
export const CLEAR_DEVICE = '"storage", "cache"';

/** A Cookie header holding a session cookie with a value (an ended session's, a forged one, or a live one). */
const NAMES_A_SESSION = /(?:^|;\s*)__session=[^;\s]/;

/**
 * Reads the session once per request; the database is opened only when there is a cookie to check. A cookie signed
 * with a retired key is re-signed with the current one on this response. A cookie that names no session (ended on
 * another device, expired, unknown) is cleared (unless the answer signs a learner in), and the browser told to clear
 * the device (CLEAR_DEVICE).
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const cookie = request.headers.get("Cookie");
  const id = cookie?.includes("__session=") ? await readCookie<string>(sessionCookie, request) : null;
  const valid = typeof id === "string" && id;
  const user = valid
    ? (context.get(checkedUserContext) ?? (await userOfSession(await getDatabase(), id, await versionSeen(request))))
    : null;
  context.set(userContext, user);
  const logFields = context.get(requestLogContext);
  if (user && logFields) logFields.learner = learnerTag(user.id);
  const response = await next();
  if (valid && user && !SAFE_METHODS.has(request.method)) {
    const version = await versionAfterWrite(await getDatabase(), id, user.id);
    if (version !== null)
      response.headers.append("Set-Cookie", await learnerVersionCookie.serialize(`${user.id} ${version}`));
  }
  if (user && (await isSignedWithRetiredKey(sessionCookie, request)) && !setsCookie(response, SESSION_COOKIE)) {
    response.headers.append("Set-Cookie", await sessionCookie.serialize(id));
  }
  if (!user && cookie && NAMES_A_SESSION.test(cookie)) {
    response.headers.set("Clear-Site-Data", CLEAR_DEVICE);
    if (!setsCookie(response, SESSION_COOKIE)) response.headers.append("Set-Cookie", await clearSessionCookie());
  }
  return response;
};
