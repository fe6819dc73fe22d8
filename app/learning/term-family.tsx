import { Form, Link } from "react-router";
import { termPath } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { useTranslation } from "../i18n/use-translation";
import { FieldError } from "./ui";

/**
 * The term page's word family (ADR 061): the parent of a form (and a way to unlink it), the forms of a parent, or a
 * form to name a parent, with the learner's terms of the same stem as one-press proposals.
 */
export function TermFamily({
  language,
  family,
  error,
  pending,
}: {
  language: string;
  family: {
    parent: { id: string; text: string; meaning: string } | null;
    forms: { id: string; text: string }[];
    proposals: { text: string; meaning: string }[];
  };
  error?: string;
  pending: boolean;
}) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  return (
    <section aria-labelledby="family-title" className="term-family">
      <h2 id="family-title">{t("family.title")}</h2>
      {family.parent ? (
        <>
          <p>
            {t("family.formOf")}{" "}
            <Link to={to(termPath(family.parent.id))} lang={language}>
              {family.parent.text}
            </Link>
            {family.parent.meaning ? ` — ${family.parent.meaning}` : null}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="unlinkParent" />
            <button type="submit" className="button button-secondary" disabled={pending}>
              {t("family.unlink")}
            </button>
          </Form>
        </>
      ) : family.forms.length > 0 ? (
        <>
          <h3>{t("family.forms", { count: family.forms.length })}</h3>
          <ul className="inline-list">
            {family.forms.map((form) => (
              <li key={form.id}>
                <Link to={to(termPath(form.id))} lang={language}>
                  {form.text}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <>
          <p className="hint" id="family-hint">
            {t("family.hint")}
          </p>
          {family.proposals.length > 0 ? (
            <Form method="post">
              <input type="hidden" name="intent" value="linkParent" />
              <ParentProposals proposals={family.proposals} pending={pending} />
            </Form>
          ) : null}
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="linkParent" />
            <label htmlFor="parent">{t("family.parentLabel")}</label>
            <input
              id="parent"
              name="parent"
              lang={language}
              maxLength={200}
              required
              aria-invalid={!!error}
              aria-describedby={error ? "parent-error" : "family-hint"}
            />
            <FieldError id="parent-error" error={error} />
            <button type="submit" className="button" disabled={pending}>
              {t("family.linkSubmit")}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

/**
 * The proposed parents of a word as one-press buttons (`parent`), each with its meaning: inside a form that says
 * `intent=linkParent` (the term page's and the reader's word panel).
 */
export function ParentProposals({
  proposals,
  pending = false,
}: {
  proposals: readonly { text: string; meaning: string }[];
  pending?: boolean;
}) {
  const { t } = useTranslation("learning");
  return (
    <ul className="word-family-proposals">
      {proposals.map((proposal) => (
        <li key={proposal.text}>
          <button
            type="submit"
            name="parent"
            value={proposal.text}
            className="button button-small button-secondary"
            disabled={pending}
          >
            {t("family.link", { parent: proposal.text })}
          </button>
          {proposal.meaning ? <span className="hint"> {proposal.meaning}</span> : null}
        </li>
      ))}
    </ul>
  );
}
