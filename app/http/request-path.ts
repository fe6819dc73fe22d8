/**
 * The page a path names: without the `.data` suffix of React Router's data requests (`/de.data` is `/de`, `/_.data`
 * is `/`) and without trailing slashes (prerendered pages are also reachable at `/company/privacy/`).
 */
export function pagePath(pathname: string): string {
  const page = pathname.endsWith("/_.data") ? pathname.slice(0, -"_.data".length) : pathname.replace(/\.data$/, "");
  return page.replace(/\/+$/, "") || "/";
}

/** The page a request is for, document or data request alike. */
export function requestPath(request: Request): string {
  return pagePath(new URL(request.url).pathname);
}

/** True for React Router's data requests (client-side navigations and form submissions with JavaScript). */
export function isDataRequest(request: Request): boolean {
  return new URL(request.url).pathname.endsWith(".data");
}
