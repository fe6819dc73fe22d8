import { useContext } from "react";
import { I18nContext } from "react-i18next";
import { useTranslation } from "../i18n/use-translation";
import type { Stage } from "./vocabulary";

/** One per table row: it translates through the context's instance, without useTranslation's per-component wrapper. */
export function StageBadge({ stage }: { stage: Stage }) {
  const { i18n } = useContext(I18nContext);
  return <span className={`stage stage-${stage}`}>{i18n.t(`stages.${stage}`, { ns: "learning" })}</span>;
}

export function FieldError({ id, error }: { id: string; error?: string }) {
  const { t } = useTranslation("learning");
  if (!error) return null;
  return (
    <p className="field-error" id={id}>
      {t(error)}
    </p>
  );
}
