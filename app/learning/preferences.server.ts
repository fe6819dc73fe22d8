import { eq } from "drizzle-orm";
import { createContext, type MiddlewareFunction } from "react-router";
import { userContext, type User } from "../auth/session.server";
import { getDatabase, type Database } from "../db/db.server";
import { users } from "../auth/auth.schema";
import { isSignedWithRetiredKey, readCookie, setsCookie, signedCookie } from "../http/cookies.server";
import { DEFAULT_STUDY_LANGUAGE, isStudyLanguage, type Level } from "./vocabulary";

export const studyLanguageCookie = signedCookie("studyLanguage", { maxAge: 365 * 24 * 60 * 60 });

/** The language the visitor studies: the learner's saved choice, else the cookie, else English. */
export const studyLanguageContext = createContext<string>(DEFAULT_STUDY_LANGUAGE);

function studyLanguageHeader(code: string): Promise<string> {
  return studyLanguageCookie.serialize(code);
}

/**
 * Makes `code` the visitor's study language: on the learner's record when signed in, and in the cookie. Returns the
 * Set-Cookie header for the response.
 */
export async function chooseStudyLanguage(user: Pick<User, "id"> | null, code: string): Promise<string> {
  if (user) await saveStudyLanguage(await getDatabase(), user.id, code);
  return studyLanguageHeader(code);
}

/**
 * Keeps the cookie and the learner's record in sync: a signed-in learner's saved language wins and is written to the
 * cookie; a learner with none saved takes the cookie's.
 */
export const studyLanguageMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const fromCookie = await readCookie<string>(studyLanguageCookie, request);
  const cookieCode = isStudyLanguage(fromCookie) ? fromCookie : null;
  const user = context.get(userContext);
  const saved = user && isStudyLanguage(user.studyLanguage) ? user.studyLanguage : null;
  const code = saved ?? cookieCode ?? DEFAULT_STUDY_LANGUAGE;
  context.set(studyLanguageContext, code);
  if (user && !saved) await chooseStudyLanguage(user, code);
  const response = await next();
  const resign = cookieCode !== null && (await isSignedWithRetiredKey(studyLanguageCookie, request));
  if (((user && cookieCode !== code) || resign) && !setsCookie(response, "studyLanguage"))
    response.headers.append("Set-Cookie", await studyLanguageHeader(code));
  return response;
};

async function saveStudyLanguage(db: Database, userId: string, code: string): Promise<void> {
  await db.update(users).set({ studyLanguage: code }).where(eq(users.id, userId));
}

export async function saveLevel(db: Database, userId: string, level: Level): Promise<void> {
  await db.update(users).set({ level }).where(eq(users.id, userId));
}
