/** The real sign-in flow, as a browser without JavaScript goes through it, for the benches of signed-in pages. */
import { readFileSync } from "node:fs";
import { get } from "./public-pages.ts";

const EMAIL = "bench.account@example.test";

function cookiesOf(headers: Record<string, string | string[] | undefined>, jar: Map<string, string>) {
  for (const header of [headers["set-cookie"] ?? []].flat()) {
    const [pair = ""] = header.split(";");
    const index = pair.indexOf("=");
    if (/max-age=0/i.test(header)) jar.delete(pair.slice(0, index));
    else jar.set(pair.slice(0, index), pair.slice(index + 1));
  }
}

async function post(baseUrl: string, pathname: string, form: Record<string, string>, jar: Map<string, string>) {
  const response = await fetch(baseUrl + pathname, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: baseUrl,
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: [...jar].map(([n, v]) => `${n}=${v}`).join("; "),
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36",
    },
    body: new URLSearchParams(form),
  });
  cookiesOf({ "set-cookie": response.headers.getSetCookie() }, jar);
  return response;
}

/** The form's honeypot fields, the POST, the link from the server log, the confirm POST; returns the Cookie header. */
export async function signIn(baseUrl: string, logFile: string, email = EMAIL): Promise<string> {
  const jar = new Map<string, string>();
  const html = (await get(`${baseUrl}/form`, { "Accept-Encoding": "identity" })).body.toString();
  const from = html.match(/name="from__confirm" value="([^"]+)"/)?.[1] ?? "";
  await post(baseUrl, "/form", { email, name__confirm: "", from__confirm: from }, jar);
  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    link = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes("sign-in link") && line.includes(email))
      .map((line) => JSON.parse(line).link as string)[0];
    if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!link) throw new Error(`no sign-in link for ${email} in the server log`);
  const url = new URL(link);
  await post(baseUrl, url.pathname, { token: url.searchParams.get("token")! }, jar);
  if (!jar.has("__session")) throw new Error(`sign-in of ${email} failed`);
  const cookie = () => [...jar].map(([n, v]) => `${n}=${v}`).join("; ");
  // Land once, as a browser does: the toast is shown and cleared, the study-language cookie set.
  cookiesOf((await get(`${baseUrl}/account/home`, { Cookie: cookie() })).headers, jar);
  return cookie();
}
