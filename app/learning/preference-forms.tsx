import { useTranslation } from "../i18n/use-translation";
import { Form, useLocation, useNavigation } from "react-router";
import { SubmitWithoutScript, useSubmitOnChange } from "../ui/submit-on-change";
import { LEVELS } from "./vocabulary";

function usePending(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/**
 * Choose the study language among every ISO 639-1 code. The names come from the server (its ICU), so the page
 * hydrates with exactly the text it was rendered with.
 */
export function StudyLanguageForm({
  current,
  options,
}: {
  current: string;
  options: { code: string; name: string }[];
}) {
  const { t } = useTranslation("learning");
  const location = useLocation();
  const pending = usePending("studyLanguage");
  const submitOnChange = useSubmitOnChange({ preventScrollReset: true });
  return (
    <Form method="post" action="/preferences" className="inline-form" aria-busy={pending}>
      <input type="hidden" name="intent" value="studyLanguage" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="study-language">{t("studyLanguage.label")}</label>
      <select id="study-language" name="studyLanguage" defaultValue={current} key={current} onChange={submitOnChange}>
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.name}
          </option>
        ))}
      </select>
      <SubmitWithoutScript className="button button-small" disabled={pending}>
        {t("studyLanguage.submit")}
      </SubmitWithoutScript>
    </Form>
  );
}

export function LevelForm({ current }: { current: string | null }) {
  const { t } = useTranslation("learning");
  const location = useLocation();
  const pending = usePending("level");
  const submitOnChange = useSubmitOnChange({ preventScrollReset: true });
  return (
    <Form method="post" action="/preferences" className="inline-form" aria-busy={pending}>
      <input type="hidden" name="intent" value="level" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="level">{t("level.label")}</label>
      <select id="level" name="level" defaultValue={current ?? ""} key={current ?? ""} onChange={submitOnChange}>
        {current ? null : <option value="">{t("level.none")}</option>}
        {LEVELS.map((level) => (
          <option key={level} value={level}>
            {t(`lists:levels.${level}`)}
          </option>
        ))}
      </select>
      <SubmitWithoutScript className="button button-small" disabled={pending}>
        {t("level.submit")}
      </SubmitWithoutScript>
    </Form>
  );
}
