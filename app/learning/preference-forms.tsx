import { useTranslation } from "../i18n/use-translation";
import { Form, useLocation, useNavigation } from "react-router";
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
  return (
    <Form method="post" action="/preferences" className="inline-form" aria-busy={pending}>
      <input type="hidden" name="intent" value="studyLanguage" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="study-language">{t("studyLanguage.label")}</label>
      <select id="study-language" name="studyLanguage" defaultValue={current} key={current}>
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-small" disabled={pending}>
        {t("studyLanguage.submit")}
      </button>
    </Form>
  );
}

export function LevelForm({ current }: { current: string | null }) {
  const { t } = useTranslation("learning");
  const location = useLocation();
  const pending = usePending("level");
  return (
    <Form method="post" action="/preferences" className="inline-form" aria-busy={pending}>
      <input type="hidden" name="intent" value="level" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="level">{t("level.label")}</label>
      <select id="level" name="level" defaultValue={current ?? ""} key={current ?? ""}>
        {current ? null : <option value="">{t("level.none")}</option>}
        {LEVELS.map((level) => (
          <option key={level} value={level}>
            {t(`lists:levels.${level}`)}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-small" disabled={pending}>
        {t("level.submit")}
      </button>
    </Form>
  );
}
