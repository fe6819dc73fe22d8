import type { TFunction } from "i18next";

export type LegalDocument = {
  title: string;
  updated: string;
  intro: string;
  sections: { title: string; body: string }[];
};

/** Reads a legal document from the `legal` namespace; the text reaches the browser as loader data only. */
export function legalDocument(t: TFunction, name: "privacy" | "termsOfUse", title: string): LegalDocument {
  const sections = t(`legal:${name}.sections`, { returnObjects: true }) as Record<
    string,
    { title: string; body: string }
  >;
  return { title, updated: t("legal:updated"), intro: t(`legal:${name}.intro`), sections: Object.values(sections) };
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
        </section>
      ))}
    </article>
  );
}
