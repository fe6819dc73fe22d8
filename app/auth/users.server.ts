import { eq } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { users } from "./auth.schema";
import type { User } from "./session.server";

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The account of an address, created on its first sign-in. */
export async function findOrCreateUser(db: Database, email: string): Promise<User> {
  const address = normaliseEmail(email);
  const [created] = await db
    .insert(users)
    .values({ email: address })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (created) return created;
  const [existing] = await db.select().from(users).where(eq(users.email, address)).limit(1);
  if (!existing) throw new Error("user vanished while signing in");
  return existing;
}
