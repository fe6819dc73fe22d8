import type { TFunction } from "i18next";
import { Link } from "react-router";

type Section = { title: string; body: string; links?: { to: string; label: string }[] };

export type LegalDocument = {
  title: string;
  updated: string;
  intro: string;
  sections: Section[];
  operator: { title: string; body: string; email: string };
};

/**
 * Reads a legal document from the `legal` namespace; the text reaches the browser as loader data only. `operator` is
 * the runtime configuration's (LEGAL_NAME, CONTACT_EMAIL); `links` add links under the section of that key.
 */
export function legalDocument(
  t: TFunction,
  name: "privacy" | "termsOfUse",
  title: string,
  operator: { name: string; email: string },
  links: Record<string, Section["links"]> = {},
): LegalDocument {
  const sections = t(`legal:${name}.sections`, { returnObjects: true, email: operator.email }) as Record<
    string,
    { title: string; body: string }
  >;
  return {
    title,
    updated: t("legal:updated"),
    intro: t(`legal:${name}.intro`),
    sections: Object.entries(sections).map(([key, section]) => ({ ...section, links: links[key] })),
    operator: {
      title: t("legal:operator.title"),
      body: t("legal:operator.body", { name: operator.name }),
      email: operator.email,
    },
  };
}

export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <article className="legal narrow">
      <h1>{document.title}</h1>
      <p className="hint">{document.updated}</p>
      <p className="lead">{document.intro}</p>
      {document.sections.map((section) => (
        <section key={section.title}>
          <h2>{section.title}</h2>
          <p>{section.body}</p>
          {section.links ? (
            <ul className="link-list">
              {section.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
      <section>
        <h2>{document.operator.title}</h2>
        <p>
          {document.operator.body} <a href={`mailto:${document.operator.email}`}>{document.operator.email}</a>
        </p>
      </section>
    </article>
  );
}
