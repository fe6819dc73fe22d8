import { i18next } from "../i18n/i18n.client";
import { localePath, type Locale } from "../i18n/locales";
import { STORED_COPY_HEADER } from "../toasts/toast";
import {
  CACHE,
  clearDevice,
  fetchDeck,
  META,
  PUBLIC_FILES,
  pendingGrades,
  readDeck,
  syncGrades,
  writeDeck,
} from "./offline-store.client";

/**
 * The offline review on a signed-in learner's device (ADR 065), loaded once the page is interactive: registers the
 * service worker (never with Save-Data; basic-HTML pages carry no script at all), sends grades given offline, and
 * stores today's cards, the offline review page with its assets and the offline page. Sign-out sends the grades
 * first and clears it all; switching to basic HTML unregisters the worker first.
 */
export const OFFLINE_REVIEW_PATH = "/account/review/offline";
export const OFFLINE_PAGE_PATH = "/offline";

type Connection = { saveData?: boolean };

export async function startOfflineDevice(locale: Locale): Promise<void> {
  if (!("serviceWorker" in navigator) || !("indexedDB" in window) || !("caches" in window)) return;
  watchForms();
  if ((navigator as Navigator & { connection?: Connection }).connection?.saveData) {
    await unregister();
    return;
  }
  if (signingOut) return;
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  refreshing = refresh(locale);
  await refreshing;
}

/** The refresh under way: sign-out waits for it, so nothing is stored again after the device was cleared. */
let refreshing: Promise<void> | null = null;
/** Set while signing out: no refresh starts or stores anything any more. */
let signingOut = false;

async function unregister(): Promise<void> {
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
}

/** Online and opening the app: waiting grades go first, then today's cards and the pages are stored afresh. */
export async function refresh(locale: Locale): Promise<void> {
  let deck = await fetchDeck(locale);
  if (!deck || signingOut) return;
  try {
    const synced = await syncGrades(deck.owner);
    if (synced.sent + synced.elsewhere + synced.failed > 0) deck = (await fetchDeck(locale)) ?? deck;
  } catch {
    // Unreachable again: the grades stay for the next visit.
  }
  if (signingOut) return;
  await writeDeck(deck);
  await storePages(locale);
}

const ASSET = /\/assets\/[^"'`\s?#\\]+\.(?:js|css)/g;
const IMPORT = /["'`](?:\.\/|\/?assets\/)([^"'`\s?#\\/]+\.js)["'`]/g;

/**
 * The offline review page and the offline page as the server draws them for this learner, and the modules they load:
 * what the pages name and what those import in turn, except the other interface languages' translations and what only
 * the route manifest names (every other page).
 */
async function storePages(locale: Locale): Promise<void> {
  const cache = await caches.open(CACHE);
  const review = localePath(locale, OFFLINE_REVIEW_PATH);
  const offline = localePath(locale, OFFLINE_PAGE_PATH);
  const assets = new Set<string>();
  for (const path of [review, offline]) {
    const response = await fetch(path, { credentials: "same-origin", headers: { [STORED_COPY_HEADER]: "1" } });
    if (!response.ok || response.redirected) return;
    await cache.put(path, response.clone());
    for (const match of (await response.text()).matchAll(ASSET)) assets.add(match[0]);
  }
  await Promise.all(
    PUBLIC_FILES.map((path) =>
      fetch(path)
        .then((response) => (response.ok ? cache.put(path, response) : undefined))
        .catch(() => undefined),
    ),
  );
  // Stored before in this language with every module the pages name (hashed names: a file stored is the one named):
  // what they import was stored with them, so the modules are not read through again.
  const meta = await cache.match(META);
  const before = meta ? ((await meta.json()) as { review: string }).review : null;
  if (before === review && (await Promise.all([...assets].map((path) => cache.match(path)))).every(Boolean)) return;
  const otherLanguage = new RegExp(`^i18n-(?!${locale}-)`);
  const queue = [...assets];
  while (queue.length > 0 && assets.size < 300) {
    const path = queue.shift()!;
    let response = await cache.match(path);
    if (!response) {
      response = await fetch(path).catch(() => undefined);
      if (!response?.ok) continue;
      await cache.put(path, response.clone());
    }
    if (!path.endsWith(".js") || /\/manifest-[\w-]+\.js$/.test(path)) continue;
    for (const match of (await response.text()).matchAll(IMPORT)) {
      const next = `/assets/${match[1]}`;
      if (!assets.has(next) && !otherLanguage.test(match[1]!)) {
        assets.add(next);
        queue.push(next);
      }
    }
  }
  if (signingOut) return;
  // Last: the worker sends the review to the stored page only once everything it loads is stored.
  await cache.put(META, Response.json({ review, offline }));
}

let watching = false;

/** The switch to basic HTML, caught before it leaves the page. */
function watchForms(): void {
  if (watching) return;
  watching = true;
  window.addEventListener(
    "submit",
    (event) => {
      const form = event.target as HTMLFormElement;
      if (form.dataset.offlineChecked) return;
      const action = new URL(form.action, window.location.href).pathname;
      // Sign-out is caught by the root, even before this module has loaded (signOutWith).
      if (action !== "/basic-mode" || new FormData(form).get("mode") !== "basic") return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const submitter = event.submitter;
      void unregister().then(() => submitNatively(form, submitter));
    },
    true,
  );
}

/** The sign-out form, caught by the root: grades sent (or kept, or discarded), the device cleared, then sent. */
export async function signOutWith(form: HTMLFormElement, submitter: HTMLElement | null): Promise<void> {
  if (await beforeSignOut()) submitNatively(form, submitter);
}

/** The form as the browser sends it without JavaScript (a whole page load), with the pressed button's value. */
function submitNatively(form: HTMLFormElement, submitter: HTMLElement | null): void {
  form.dataset.offlineChecked = "1";
  if (submitter instanceof HTMLButtonElement && submitter.name) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = submitter.name;
    input.value = submitter.value;
    form.append(input);
  }
  HTMLFormElement.prototype.submit.call(form);
}

/**
 * Before signing out: the waiting grades are sent; if some cannot be (offline), the learner is told how many and
 * chooses to keep them (and stay signed in) or to discard them. Then the device's copy is cleared.
 */
async function beforeSignOut(): Promise<boolean> {
  signingOut = true;
  await refreshing?.catch(() => undefined);
  const deck = await readDeck().catch(() => null);
  let offline = false;
  if (deck) {
    let left: number;
    try {
      left = (await syncGrades(deck.owner)).left;
    } catch {
      offline = true;
      left = (await pendingGrades(deck.owner)).length;
    }
    if (left > 0 && !(await confirmDiscard(left))) {
      signingOut = false;
      return false;
    }
  }
  // Offline the worker stays, with the offline page only, to answer the sign-out's own failed request.
  await clearDevice(offline);
  if (!offline) await unregister();
  return true;
}

/** A modal dialog: "N grades wait to be sent", keep them or discard them and sign out. */
function confirmDiscard(count: number): Promise<boolean> {
  const t = (key: string, options?: Record<string, unknown>) => i18next.t(`common:offline.${key}`, options);
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "offline-dialog";
    dialog.setAttribute("aria-labelledby", "offline-dialog-title");
    const title = document.createElement("h2");
    title.id = "offline-dialog-title";
    title.textContent = t("signOutTitle");
    const text = document.createElement("p");
    text.textContent = t("signOutWaiting", { count });
    const actions = document.createElement("p");
    actions.className = "actions";
    const keep = document.createElement("button");
    keep.type = "button";
    keep.className = "button";
    keep.textContent = t("keep");
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "button button-danger";
    discard.textContent = t("discard", { count });
    actions.append(keep, discard);
    dialog.append(title, text, actions);
    const close = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    keep.addEventListener("click", () => close(false));
    discard.addEventListener("click", () => close(true));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    keep.focus();
  });
}
