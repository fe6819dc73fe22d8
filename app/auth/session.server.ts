import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import { createContext, type MiddlewareFunction } from "react-router";
import { getDatabase, type Database } from "../db/db.server";
import { sessions, users } from "./auth.schema";
import { readCookie, signedCookie } from "../http/cookies.server";

/** About 400 days, the longest lifetime browsers accept for a cookie. */
export const SESSION_MAX_AGE_S = 400 * 24 * 60 * 60;

export type User = typeof users.$inferSelect;

const sessionCookie = signedCookie("__session", { maxAge: SESSION_MAX_AGE_S });

/** The signed-in learner, or null; set once per request by the session middleware. */
export const userContext = createContext<User | null>(null);

const hashId = (id: string) => createHash("sha256").update(id).digest("base64url");

/** Starts a session for a user: a row named by the hash of a random id, and a cookie carrying that id. */
export async function createSession(db: Database, userId: string): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({ idHash: hashId(id), userId, expiresAt: new Date(Date.now() + SESSION_MAX_AGE_S * 1000) });
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

/** The user a request's session cookie names; a tampered, unknown or expired cookie means signed out. */
export async function sessionUser(db: Database, request: Request): Promise<User | null> {
  const id = await readCookie<string>(sessionCookie, request);
  if (typeof id !== "string" || !id) return null;
  const [row] = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, hashId(id)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row?.user ?? null;
}

/** Reads the session once per request; the database is opened only when there is a cookie to check. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const hasCookie = request.headers.get("Cookie")?.includes("__session=");
  context.set(userContext, hasCookie ? await sessionUser(await getDatabase(), request) : null);
  return next();
};
