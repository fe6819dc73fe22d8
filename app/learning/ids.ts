import { z } from "zod";

const uuid = z.uuid();

/** Terms, public terms and examples are named by UUIDs: the one check every route parameter and form field passes. */
export function isId(value: unknown): value is string {
  return uuid.safeParse(value).success;
}
