import { z } from "zod";

/** Term, example and public-list ids are UUIDs; anything else (36 dashes included) never reaches the database. */
const termIdSchema = z.uuid();

export function isTermId(value: unknown): value is string {
  return termIdSchema.safeParse(value).success;
}
