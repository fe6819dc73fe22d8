import { useTranslation } from "../i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { HoneypotInputs } from "./honeypot-inputs";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";

/** The e-mail form; on /form and as the call to action on the home page, it posts to the /form action. */
export function SignInForm({
  id = "email",
  invalid = null,
}: {
  id?: string;
  /** A refused address and the message about it: shown again in the field, which is marked invalid. */
  invalid?: { value: string; message: string } | null;
}) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  const action = to(PATHS.signIn);
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === action;
  return (
    <Form method="post" action={action} className="stack sign-in-form" aria-busy={pending}>
      <HoneypotInputs label={t("form.honeypot")} />
      <label htmlFor={id}>{t("form.emailLabel")}</label>
      <input
        id={id}
        key={invalid?.value ?? ""}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        defaultValue={invalid?.value}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `${id}-error ${id}-hint` : `${id}-hint`}
      />
      {invalid ? (
        <p id={`${id}-error`} className="field-error">
          {invalid.message}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="hint">
        {t("form.emailHint")}
      </p>
      <button type="submit" className="button" disabled={pending}>
        {pending ? t("form.sending") : t("form.submit")}
      </button>
    </Form>
  );
}
