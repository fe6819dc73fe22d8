/**
 * A visitor of a running server (a ServerProcess, or any base URL such as a proxy in front of several): plain HTTP as a
 * browser without JavaScript sends it, with its own cookie jar, the sign-in form's honeypot fields and a same-origin
 * Origin header on form posts.
 */
import { BROWSER_USER_AGENT } from "./server-process.ts";

const decodeHtml = (text: string) =>
  text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (entity[0] !== "#") return named[entity.toLowerCase()] ?? whole;
    return String.fromCodePoint(
      entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)),
    );
  });

/** The value attribute of the <input name="..."> in a page, as a browser would submit it. */
export function inputValue(html: string, name: string): string {
  const tag = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`))?.[0];
  if (!tag) throw new Error(`no <input name="${name}"> in the page`);
  return decodeHtml(tag.match(/\bvalue="([^"]*)"/)?.[1] ?? "");
}

/** The toasts rendered on a page: [title, description] pairs. */
export function toastsIn(html: string): [string, string][] {
  return [...html.matchAll(/<li class="toast[^"]*"[^>]*><div><strong>([^<]*)<\/strong><p>([^<]*)<\/p>/g)].map((m) => [
    decodeHtml(m[1]!),
    decodeHtml(m[2]!),
  ]);
}

export type Visitor = ReturnType<typeof visitor>;

export function visitor(baseUrl: string, options: { timeoutMs?: number; jar?: Map<string, string> } = {}) {
  // One browser's cookies, possibly shared with a visitor of another instance (one site behind a load balancer).
  const jar = options.jar ?? new Map<string, string>();
  const origin = new URL(baseUrl).origin;

  function remember(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = cookie.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\b/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(at + 1));
    }
  }

  async function request(
    pathAndQuery: string,
    init: { method?: string; form?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { "User-Agent": BROWSER_USER_AGENT, Accept: "text/html" };
    if (jar.size) headers.Cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    let body: URLSearchParams | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form);
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      headers.Origin = origin;
    }
    const response = await fetch(new URL(pathAndQuery, baseUrl), {
      method: init.method ?? (init.form ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    remember(response);
    return response;
  }

  return {
    jar,
    request,
    /** GETs a page and returns its status and HTML. */
    async page(pathAndQuery: string) {
      const response = await request(pathAndQuery);
      return { response, html: await response.text() };
    },
    /** Opens /form and submits the e-mail form with the honeypot fields the page carries; follows to the toast. */
    async requestSignIn(email: string) {
      const { html } = await this.page("/form");
      const response = await request("/form", {
        form: {
          email,
          name__confirm: inputValue(html, "name__confirm"),
          from__confirm: inputValue(html, "from__confirm"),
        },
      });
      await response.body?.cancel();
      return response;
    },
    /** Posts the token of a sign-in link to /confirm, as the confirm page's button does. */
    async confirm(link: string) {
      const token = new URL(link).searchParams.get("token") ?? "";
      const response = await request("/confirm", { form: { token } });
      await response.body?.cancel();
      return response;
    },
  };
}
