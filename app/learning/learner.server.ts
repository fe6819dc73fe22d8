import { redirect, type RouterContextProvider } from "react-router";
import { userContext, type User } from "../auth/session.server";
import { studyLanguageContext } from "./preferences.server";
import type { Owner } from "./terms.server";
import { PATHS } from "../http/paths";

/** The signed-in learner and the terms they work on (their current study language). The guard ran before. */
export function requireLearner(context: Readonly<RouterContextProvider>): { user: User; owner: Owner } {
  const user = context.get(userContext);
  if (!user) throw redirect(PATHS.signIn);
  return { user, owner: { userId: user.id, language: context.get(studyLanguageContext) } };
}
