import { useTranslation } from "../i18n/use-translation";
import { FieldError } from "../learning/ui";
import { TEXT_LIMIT_BYTES, TITLE_LIMIT, type TextErrors } from "./text-form";

/** Title and text of a reading text; `upload` adds the `.txt` file input. Errors are keys of the `reading` namespace. */
export function TextFields({
  values,
  errors,
  language,
  upload,
}: {
  values?: { title?: string; body?: string };
  errors?: TextErrors;
  language: string;
  upload: boolean;
}) {
  const { t } = useTranslation("reading");
  const error = (name: keyof TextErrors) => (errors?.[name] ? `reading:${errors[name]}` : undefined);
  return (
    <>
      <label htmlFor="title">{t("form.title")}</label>
      <input
        id="title"
        name="title"
        lang={language}
        required
        maxLength={TITLE_LIMIT}
        defaultValue={values?.title}
        aria-invalid={!!errors?.title}
        aria-describedby={errors?.title ? "title-error" : undefined}
      />
      <FieldError id="title-error" error={error("title")} />
      <label htmlFor="body">{t("form.body")}</label>
      <textarea
        id="body"
        name="body"
        lang={language}
        rows={12}
        defaultValue={values?.body}
        aria-invalid={!!errors?.body}
        aria-describedby={`body-hint${errors?.body ? " body-error" : ""}`}
      />
      <p className="hint" id="body-hint">
        {t("form.limit", { bytes: TEXT_LIMIT_BYTES })}
      </p>
      <FieldError id="body-error" error={error("body")} />
      {upload ? (
        <>
          <label htmlFor="file">{t("form.file")}</label>
          <input
            id="file"
            name="file"
            type="file"
            accept=".txt,text/plain"
            aria-invalid={!!errors?.file}
            aria-describedby={errors?.file ? "file-error" : undefined}
          />
          <FieldError id="file-error" error={error("file")} />
        </>
      ) : null}
    </>
  );
}
