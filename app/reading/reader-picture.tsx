import { useRouteLoaderData } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import type { Theme } from "../theme/theme";
import light1280 from "./images/reader-1280-light.webp";
import light640 from "./images/reader-640-light.webp";
import dark1280 from "./images/reader-1280-dark.webp";
import dark640 from "./images/reader-640-dark.webp";

/** The pictures' size in pixels (the reader at 1280 × 800), written on the image so its room is kept before it loads. */
export const PICTURE_SIZE = { width: 1280, height: 800 } as const;
const SIZES = "(min-width: 70rem) 67.5rem, calc(100vw - 2rem)";
const PICTURES = {
  light: { srcSet: `${light640} 640w, ${light1280} 1280w`, src: light1280 },
  dark: { srcSet: `${dark640} 640w, ${dark1280} 1280w`, src: dark1280 },
};

/**
 * A picture of the product: the reader of a learner's own text, taken from the running app
 * (tests/screenshots/landing-picture.shots.ts), in the page's theme: the chosen one, or the system's through a
 * `<source>` when the visitor chose none. The browser fetches one file, at the width it shows. Below the first
 * screen: lazy, and after the page's own requests.
 */
export function ReaderPicture() {
  const { t } = useTranslation("landing");
  const theme = useRouteLoaderData<{ theme: Theme }>("root")?.theme ?? "system";
  const picture = PICTURES[theme === "dark" ? "dark" : "light"];
  return (
    <section className="reader-picture" aria-labelledby="picture-title">
      <h2 id="picture-title">{t("picture.title")}</h2>
      <p className="lead">{t("picture.body")}</p>
      <picture>
        {theme === "system" ? (
          <source media="(prefers-color-scheme: dark)" srcSet={PICTURES.dark.srcSet} sizes={SIZES} />
        ) : null}
        <img
          className="reader-shot"
          src={picture.src}
          srcSet={picture.srcSet}
          sizes={SIZES}
          width={PICTURE_SIZE.width}
          height={PICTURE_SIZE.height}
          alt={t("picture.alt")}
          loading="lazy"
          decoding="async"
          fetchPriority="low"
        />
      </picture>
    </section>
  );
}
