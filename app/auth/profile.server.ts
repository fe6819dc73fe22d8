import { data, type RouterContextProvider } from "react-router";
import { endPlanBeforeDeletion } from "../billing/actions.server";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { learnerTimeZone, momentFormatter } from "../learning/time-zone.server";
import { PATHS } from "../http/paths";
import { readForm } from "../http/request-body.server";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { confirmsDeletion, deleteAccount, sendDeletionMail } from "./account-deletion.server";
import { deviceOf } from "./device";
import {
  clearSessionCookie,
  destroyOtherSessions,
  destroySessionOf,
  sessionsOf,
  userContext,
  type User,
} from "./session.server";

function requireUser(context: Readonly<RouterContextProvider>): User {
  const user = context.get(userContext);
  // The guard turns signed-out visitors away before this runs.
  if (!user) throw new Response(null, { status: 401 });
  return user;
}

/** The profile page: the address and every open session with its device in plain words and its dates. */
export async function profileData(request: Request, context: Readonly<RouterContextProvider>) {
  const user = requireUser(context);
  const locale = requestLocale(context);
  const db = await getDatabase();
  const [sessions, timeZone] = await Promise.all([sessionsOf(db, user.id, request), learnerTimeZone(db, user.id)]);
  const moment = momentFormatter(locale, timeZone);
  return {
    email: user.email,
    sessions: sessions.map((session) => ({
      id: session.id,
      device: deviceOf(session.userAgent),
      current: session.current,
      createdAt: moment(session.createdAt),
      lastSeenAt: moment(session.lastSeenAt),
    })),
  };
}

/** Signs out one other session (`intent=signOutSession`) or every other one (`intent=signOutOthers`). */
export async function profileAction(request: Request, context: Readonly<RouterContextProvider>) {
  const user = requireUser(context);
  const { t } = getInstance(context);
  const back = localePath(requestLocale(context), PATHS.profile);
  const form = await readForm(request);
  const db = await getDatabase();
  const intent = form.get("intent");
  if (intent === "signOutOthers") {
    const count = await destroyOtherSessions(db, user.id, request);
    return redirectWithToast(request, back, translatedToast(t, "info", "toast.signedOutOthers", { count }));
  }
  const sessionId = form.get("sessionId");
  if (intent === "signOutSession" && typeof sessionId === "string" && sessionId.length <= 100) {
    const current = (await sessionsOf(db, user.id, request)).find((session) => session.current)?.id;
    if (await destroySessionOf(db, user.id, sessionId)) {
      // Ending this browser's own session is a sign-out: the cookie goes too.
      const headers = sessionId === current ? { "Set-Cookie": await clearSessionCookie() } : undefined;
      const to = sessionId === current ? localePath(requestLocale(context), "/") : back;
      return redirectWithToast(request, to, translatedToast(t, "info", "toast.sessionEnded"), { headers });
    }
    return redirectWithToast(request, back, translatedToast(t, "error", "toast.sessionGone"));
  }
  throw data(null, { status: 400 });
}

/**
 * The second step of the deletion: the learner typed the confirmation word (else 400 with the message next to the
 * field). Deletes everything, sends the confirmation e-mail, signs the browser out and says so on the home page.
 */
export async function deleteAccountAction(request: Request, context: Readonly<RouterContextProvider>) {
  const user = requireUser(context);
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const form = await readForm(request);
  if (!confirmsDeletion(t, form.get("confirmation"))) {
    return data({ error: "account:profile.delete.wrongWord" }, { status: 400 });
  }
  const planStillCharged = await endPlanBeforeDeletion(request, context, user.id, localePath(locale, PATHS.billing));
  if (planStillCharged) return planStillCharged;
  await deleteAccount(await getDatabase(), user);
  await sendDeletionMail(user.email, t, locale);
  return redirectWithToast(request, localePath(locale, "/"), translatedToast(t, "success", "toast.accountDeleted"), {
    headers: { "Set-Cookie": await clearSessionCookie() },
  });
}
