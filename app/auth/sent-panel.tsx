import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { HoneypotInputs } from "./honeypot-inputs";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";

/**
 * After a link was requested, /form says where it went (the inbox, or the server log when no mail is set up) and
 * offers another once the rate limit allows; without JavaScript the wait is the one rendered by the server. No card
 * and no heading of its own: the toast says "Check your inbox" once, and this names the address and what comes next.
 */
export function SentPanel({
  email,
  waitSeconds,
  delivery,
}: {
  email: string;
  waitSeconds: number;
  delivery: "mail" | "log";
}) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  const action = to(PATHS.signIn);
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === action;
  const [wait, setWait] = useState(waitSeconds);
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const until = Date.now() + waitSeconds * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setWait(left);
      if (left === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [waitSeconds]);
  return (
    <div className="sent-panel" data-delivery={delivery}>
      <p className="lead">{delivery === "log" ? t("form.sent.logBody", { email }) : t("form.sent.body", { email })}</p>
      {delivery === "mail" ? <p className="hint">{t("form.sent.resendHint")}</p> : null}
      <Form method="post" action={action} className="stack" aria-busy={pending}>
        <HoneypotInputs label={t("form.honeypot")} />
        <input type="hidden" name="email" value={email} />
        {wait > 0 ? (
          <p id="resend-wait" className="hint">
            {t("form.sent.wait", { count: wait })}
          </p>
        ) : null}
        <button
          type="submit"
          className="button"
          disabled={pending || wait > 0}
          aria-describedby={wait > 0 ? "resend-wait" : undefined}
        >
          {pending ? t("form.sending") : t("form.sent.resend")}
        </button>
      </Form>
      <p className="actions">
        <Link to={`${action}?another=1`}>{t("form.sent.another")}</Link>
      </p>
    </div>
  );
}
