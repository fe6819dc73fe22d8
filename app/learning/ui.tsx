import { useTranslation } from "react-i18next";
import type { Stage } from "./vocabulary";

export function StageBadge({ stage }: { stage: Stage }) {
  const { t } = useTranslation("learning");
  return <span className={`stage stage-${stage}`}>{t(`stages.${stage}`)}</span>;
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
