import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A protocol-level fake of the two Supabase Auth (GoTrue) endpoints the supabase provider calls:
 * POST /auth/v1/otp and POST /auth/v1/verify. Supabase Auth itself cannot run here (no network), so this fake speaks
 * its HTTP protocol on loopback; it is not our code path, only the service on the other end.
 */
export async function startFakeSupabaseAuth() {
  const otpRequests: { email: string; redirectTo: string | null; apikey: string | null }[] = [];
  const verifyRequests: { tokenHash: string; type: string }[] = [];
  const issued = new Map<string, { email: string; used: boolean }>();
  /** Status codes to answer the next /otp calls with, before answering normally. */
  const otpFailures: number[] = [];

  const readJson = (req: IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => resolve(body ? JSON.parse(body) : {}));
    });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", "X-Supabase-Api-Version": "2024-01-01" });
      res.end(JSON.stringify(body));
    };
    const body = await readJson(req);
    if (req.method === "POST" && url.pathname === "/auth/v1/otp") {
      const failure = otpFailures.shift();
      if (failure) return send(failure, { code: "unexpected_failure", msg: "Simulated failure" });
      const email = String(body.email);
      otpRequests.push({
        email,
        redirectTo: url.searchParams.get("redirect_to"),
        apikey: req.headers.apikey as string | null,
      });
      issued.set(randomBytes(28).toString("hex"), { email, used: false });
      return send(200, {});
    }
    if (req.method === "POST" && url.pathname === "/auth/v1/verify") {
      const tokenHash = String(body.token_hash);
      verifyRequests.push({ tokenHash, type: String(body.type) });
      const entry = issued.get(tokenHash);
      if (!entry || entry.used || body.type !== "email") {
        return send(403, { code: "otp_expired", msg: "Email link is invalid or has expired" });
      }
      entry.used = true;
      const user = {
        id: randomUUID(),
        aud: "authenticated",
        role: "authenticated",
        email: entry.email,
        created_at: new Date().toISOString(),
      };
      return send(200, {
        access_token: "fake-access-token",
        token_type: "bearer",
        expires_in: 3600,
        refresh_token: "fake-refresh",
        user,
      });
    }
    send(404, { code: "not_found", msg: `fake has no ${req.method} ${url.pathname}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    otpRequests,
    verifyRequests,
    otpFailures,
    /** The token hash the fake mailed to an address (what Supabase's e-mail template puts in the link). */
    tokenHashFor(email: string): string {
      const found = [...issued].reverse().find(([, entry]) => entry.email === email);
      if (!found) throw new Error(`no OTP issued for ${email}`);
      return found[0];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
