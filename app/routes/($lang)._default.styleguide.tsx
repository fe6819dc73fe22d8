import { useTranslation } from "../i18n/use-translation";
import type { PageHandle } from "../ui/seo";
import { Logo } from "../ui/logo";

export const handle: PageHandle = { title: "titles.styleguide" };

/** For the people who build the app, not for search engines: the page is neither indexed nor in the navigation. */
export const headers = () => ({ "X-Robots-Tag": "noindex" });
export const meta = () => [{ name: "robots", content: "noindex" }];

const COLOURS = [
  "ink",
  "muted",
  "paper",
  "wash",
  "line",
  "field-line",
  "accent",
  "accent-hover",
  "accent-wash",
  "brand-warm",
  "danger",
  "ok",
  "focus",
];
const STAGES = ["new", "tolearn", "inprogress", "needsreview", "learned", "ignored"] as const;
const STEPS = ["-1", "0", "1", "2", "3", "4"];
const SPACES = ["1", "2", "3", "4", "5", "6", "8", "12"];
const RADII = ["radius-s", "radius", "radius-l", "radius-pill"];

/** Every token and component of the design system (decision 029), in the light and the dark palette side by side. */
export default function StyleguidePage() {
  const { t } = useTranslation();
  return (
    <section>
      <h1>{t("titles.styleguide")}</h1>
      <div className="sg-themes">
        {(["light", "dark"] as const).map((scheme) => (
          <div key={scheme} className={`sg-theme sg-${scheme}`}>
            <h2>
              <code>color-scheme: {scheme}</code>
            </h2>
            <p className="brand">
              <Logo /> Polyglot
            </p>
            <h3>Colours</h3>
            <ul className="sg-swatches">
              {COLOURS.map((name) => (
                <li key={name}>
                  <span className="sg-swatch" style={{ background: `var(--${name})` }} />
                  <code>--{name}</code>
                </li>
              ))}
            </ul>
            <h3>Stages</h3>
            <ul className="sg-swatches">
              {STAGES.map((stage) => (
                <li key={stage}>
                  <span className="sg-swatch" style={{ background: `var(--stage-${stage})` }} />
                  <span className={`word word-stage w-${stage}`}>{t(`reading:stages.${stage}`)}</span>
                </li>
              ))}
            </ul>
            <h3>Components</h3>
            <p className="actions">
              <button type="button" className="button">
                {t("nav.signIn")}
              </button>
              <button type="button" className="button button-secondary">
                {t("nav.menu")}
              </button>
              <button type="button" className="button button-small">
                {t("lists:public.add")}
              </button>
              <button type="button" className="button button-secondary" disabled>
                {t("lists:public.allAdded")}
              </button>
            </p>
            <p className="notice">{t("billing:billing.closed")}</p>
            <div className="card">
              <p className="eyebrow">{t("nav.review")}</p>
              <p className="price">{t("billing:subscription.freePrice")}</p>
            </div>
            <ul className="word-list">
              <li className="word-row">
                <p className="word-line">
                  <span className="word-term">street</span> <span className="word-meaning">…</span>{" "}
                  <span className="pos-tag">{t("lists:partsOfSpeech.noun")}</span>
                </p>
                <p className="word-example">I live on a quiet street.</p>
                <div className="word-action">
                  <span className="owned">{t("lists:public.owned")}</span>
                </div>
              </li>
            </ul>
            <details>
              <summary>{t("lists:public.available")}</summary>
              <p>…</p>
            </details>
          </div>
        ))}
      </div>
      <h2>Type</h2>
      {STEPS.map((step) => (
        <p key={step} style={{ fontSize: `var(--step-${step})`, margin: "0.25rem 0" }}>
          <code>--step-{step}</code> {t("tagline")}
        </p>
      ))}
      <h2>Space</h2>
      {SPACES.map((space) => (
        <p key={space} className="sg-space">
          <span style={{ width: `var(--space-${space})` }} /> <code>--space-{space}</code>
        </p>
      ))}
      <h2>Radii and shadows</h2>
      <ul className="sg-boxes">
        {RADII.map((radius) => (
          <li key={radius} style={{ borderRadius: `var(--${radius})` }}>
            <code>--{radius}</code>
          </li>
        ))}
        <li style={{ boxShadow: "var(--shadow-1)" }}>
          <code>--shadow-1</code>
        </li>
        <li style={{ boxShadow: "var(--shadow-2)" }}>
          <code>--shadow-2</code>
        </li>
      </ul>
    </section>
  );
}
