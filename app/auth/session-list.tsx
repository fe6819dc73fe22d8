import { useTranslation } from "../i18n/use-translation";
import { Form } from "react-router";
import type { Device } from "./device";

type Session = { id: string; device: Device; current: boolean; createdAt: string; lastSeenAt: string };

/** "Firefox on Linux", or as much of it as the User-Agent told. */
function deviceName(t: (key: string, values?: Record<string, string>) => string, { browser, os }: Device) {
  if (browser && os) return t("profile.device.both", { browser, os });
  if (browser) return browser;
  if (os) return t("profile.device.osOnly", { os });
  return t("profile.device.unknown");
}

/** The learner's open sessions, each with a sign-out button (a plain form POST). */
export function SessionList({ sessions }: { sessions: Session[] }) {
  const { t } = useTranslation("account");
  return (
    <ul className="session-list">
      {sessions.map((session) => {
        const name = deviceName(t, session.device);
        return (
          <li key={session.id}>
            <div>
              <strong>{name}</strong>
              {session.current ? <span className="hint">{` (${t("profile.thisDevice")})`}</span> : null}
              <br />
              <span className="hint">
                {t("profile.signedInAt", { date: session.createdAt })} ·{" "}
                {t("profile.lastSeenAt", { date: session.lastSeenAt })}
              </span>
            </div>
            <Form method="post">
              <input type="hidden" name="sessionId" value={session.id} />
              <button
                type="submit"
                name="intent"
                value="signOutSession"
                className="button button-small button-secondary"
                aria-label={`${t("profile.signOutSession")}: ${name}`}
              >
                {t("profile.signOutSession")}
              </button>
            </Form>
          </li>
        );
      })}
    </ul>
  );
}
