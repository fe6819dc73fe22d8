import { Form, Link } from "react-router";
import type { WordFamily } from "../learning/families";
import { ParentProposals } from "../learning/term-family";
import { termPath } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { useTranslation } from "../i18n/use-translation";

/**
 * The word panel's family section (ADR 061): the parent of a form (with a way to unlink it), the number of forms of a
 * parent, or the proposed parents as plain form buttons: pressing one makes the word a form of it (and a term, if it
 * is not one yet), taking the parent's meaning when it has none.
 */
export function WordFamilySection({
  family,
  word,
  termId,
  language,
  action,
  page,
  inPlace,
}: {
  family: WordFamily;
  word: { word: number; text: string; sentence: string };
  termId: string | null;
  language: string;
  action: string;
  page: number;
  inPlace: boolean;
}) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const position = (
    <>
      <input type="hidden" name="page" value={page} />
      <input type="hidden" name="word" value={word.word} />
      {inPlace ? <input type="hidden" name="inPlace" value="1" /> : null}
    </>
  );
  if (family.parent)
    return (
      <section className="word-family" aria-label={t("family.title")}>
        <p>
          {t("family.formOf")}{" "}
          <Link to={to(termPath(family.parent.id))} lang={language}>
            {family.parent.text}
          </Link>
          {family.parent.meaning ? ` — ${family.parent.meaning}` : null}
        </p>
        {termId ? (
          <Form method="post" action={action} preventScrollReset>
            {position}
            <input type="hidden" name="intent" value="unlinkParent" />
            <input type="hidden" name="termId" value={termId} />
            <button type="submit" className="button button-small button-secondary">
              {t("family.unlink")}
            </button>
          </Form>
        ) : null}
      </section>
    );
  if (family.forms > 0 && termId)
    return (
      <section className="word-family" aria-label={t("family.title")}>
        <p>
          <Link to={to(termPath(termId))}>{t("family.forms", { count: family.forms })}</Link>
        </p>
      </section>
    );
  if (family.proposals.length === 0) return null;
  return (
    <section className="word-family" aria-label={t("family.title")}>
      <Form method="post" action={action} preventScrollReset>
        {position}
        <input type="hidden" name="intent" value="linkParent" />
        <input type="hidden" name="text" value={word.text} />
        <input type="hidden" name="sentence" value={word.sentence} />
        <fieldset>
          <legend>{t("family.propose")}</legend>
          <ParentProposals proposals={family.proposals} />
        </fieldset>
      </Form>
    </section>
  );
}
