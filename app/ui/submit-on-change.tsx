import type { ButtonHTMLAttributes, ChangeEvent } from "react";
import { useSubmit, type SubmitOptions } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";

/**
 * A form whose one choice can act alone (a language, a theme, a period): without JavaScript the learner picks and
 * presses its button; with JavaScript the change submits the form and the button is not rendered.
 */
export function useSubmitOnChange(options?: SubmitOptions) {
  const submit = useSubmit();
  return (event: ChangeEvent<HTMLSelectElement>) => {
    if (event.currentTarget.form) void submit(event.currentTarget.form, options);
  };
}

/** The submit button of such a form, rendered on the server and gone once the page is hydrated. */
export function SubmitWithoutScript(props: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type">) {
  return useHydrated() ? null : <button type="submit" {...props} />;
}
