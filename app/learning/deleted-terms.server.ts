import { signedCookie } from "../http/cookies.server";

/** The learner's latest deleted terms, so a page of one (the browser's Back, an old link) says it was deleted. */
const deletedTerms = signedCookie("deletedTerms", { maxAge: 60 * 60 * 24 });
const REMEMBERED = 10;

async function remembered(request: Request): Promise<string[]> {
  const value: unknown = await deletedTerms.parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string").slice(0, REMEMBERED) : [];
}

/** The Set-Cookie header that adds `id` to the remembered deleted terms (the latest ten). */
export async function rememberDeletedTerm(request: Request, id: string): Promise<string> {
  const ids = [id, ...(await remembered(request)).filter((other) => other !== id)].slice(0, REMEMBERED);
  return deletedTerms.serialize(ids);
}

/** Whether this browser deleted the term `id` lately. */
export async function wasDeleted(request: Request, id: string): Promise<boolean> {
  return (await remembered(request)).includes(id);
}
