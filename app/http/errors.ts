import { data } from "react-router";
import { requestPath } from "./request-path";

/** What an error response carries so the error page can say it in the visitor's language. */
export type ErrorPayload = { kind: "not-found" | "invalid-param" | "deleted" | "unavailable"; path: string };

/** An unmatched address: 404 'Page not found: {path}'. */
export function pageNotFound(request: Request): never {
  throw data<ErrorPayload>({ kind: "not-found", path: requestPath(request) }, { status: 404 });
}

/** A page of something the learner deleted (the app remembers it): 404, saying it was deleted. */
export function deletedNotFound(request: Request): never {
  throw data<ErrorPayload>({ kind: "deleted", path: requestPath(request) }, { status: 404 });
}

/** A route parameter that fails its validation rule: 404 'Page Not Found: {path}'. */
export function invalidParam(request: Request): never {
  throw data<ErrorPayload>({ kind: "invalid-param", path: requestPath(request) }, { status: 404 });
}

export function isErrorPayload(value: unknown): value is ErrorPayload {
  return typeof value === "object" && value !== null && "kind" in value && "path" in value;
}
