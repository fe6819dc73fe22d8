/**
 * The mark: two speech bubbles, the brand's indigo behind the warm one, drawn with the theme's tokens so it reads in
 * light and dark. Decorative next to the name "Polyglot" (the favicon files are its fixed-colour copies).
 */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path
        className="logo-back"
        d="M4 4h17a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3h-9l-6 5v-5H4a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3z"
      />
      <path
        className="logo-front"
        d="M14 12h14a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-1v4l-5-4h-8a3 3 0 0 1-3-3v-8a3 3 0 0 1 3-3z"
      />
      <path className="logo-mark" d="M17 17.5h8M17 21h5" />
    </svg>
  );
}
