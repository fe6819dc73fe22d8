/** Who signed in, in plain fields: analytics knows nothing of the auth capability's types. */
export type SignedInAccount = { id: string; email: string; createdAt: Date };

/** An account created today counts as a registration, any other as a login. */
export function isRegistration(account: Pick<SignedInAccount, "createdAt">, now = new Date()): boolean {
  return account.createdAt.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
}

export function signInEvent(
  account: Pick<SignedInAccount, "createdAt">,
  now = new Date(),
): "registration_completed" | "login_completed" {
  return isRegistration(account, now) ? "registration_completed" : "login_completed";
}
