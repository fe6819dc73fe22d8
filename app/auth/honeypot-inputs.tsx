import { useRouteLoaderData } from "react-router";
import type { RootData } from "../root";

/**
 * The honeypot's fields (honeypot.server.ts) as the root loader gives them: a text field people never see (hidden by
 * the stylesheet's `.honeypot`) and the form's encrypted time. The markup of remix-utils' `HoneypotInputs`, written here
 * so the browser's first load does not carry the library's provider and defaults.
 */
export function HoneypotInputs({ label }: { label: string }) {
  const props = useRouteLoaderData<RootData>("root")?.honeypot;
  if (!props) return null;
  const { nameFieldName: name, validFromFieldName: validFrom, encryptedValidFrom } = props;
  return (
    <div id={`${name}_wrap`} className="honeypot" aria-hidden="true">
      <label htmlFor={name}>{label}</label>
      {/* oxlint-disable-next-line jsx-a11y/autocomplete-valid -- a value browsers do not know, so none fills it in */}
      <input id={name} name={name} type="text" defaultValue="" autoComplete="nope" tabIndex={-1} />
      {validFrom && encryptedValidFrom ? (
        <>
          <label htmlFor={validFrom}>{label}</label>
          <input
            id={validFrom}
            name={validFrom}
            type="text"
            value={encryptedValidFrom}
            readOnly
            autoComplete="off"
            tabIndex={-1}
          />
        </>
      ) : null}
    </div>
  );
}
