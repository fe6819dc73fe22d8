/**
 * Chunking of the client build (vite.config.ts): what the shell of every page and the two public entry points (home
 * and sign-in) import statically goes into two chunks, `vendor` (libraries) and `app` (our shared modules), instead of
 * the score of small shared chunks Rolldown makes by itself. On a slow link each file costs a request's headers and a
 * round trip. Route modules stay files of their own (React Router loads them by route), and what only other pages
 * import stays out of the first load, in Rolldown's own chunks.
 */

/** The modules whose static imports make up the first load of `/` and `/form`: the client entry and their routes. */
const FIRST_LOAD_MODULES = [
  /\/app\/entry\.client\.tsx(\?|$)/,
  /\/app\/root\.tsx(\?|$)/,
  /\/app\/routes\/\(\$lang\)\.tsx(\?|$)/,
  /\/app\/routes\/\(\$lang\)\._default\.tsx(\?|$)/,
  /\/app\/routes\/\(\$lang\)\._default\._index\.tsx(\?|$)/,
  /\/app\/routes\/\(\$lang\)\._default\.form\.tsx(\?|$)/,
];
/** Entries of the client build: React Router needs each in a file of its own. */
const ENTRY_MODULE = /\/app\/(root\.tsx|entry\.client\.tsx|routes\/)/;

/** The part of Rolldown's chunking context used here (`codeSplitting.groups[].name`'s second argument). */
type ChunkingContext = { getModuleInfo(id: string): { importers: readonly string[] } | null };

let memo: { context: ChunkingContext; firstLoad: Map<string, boolean> } | null = null;

/** Whether a first-load module imports `id` statically, directly or through other modules. */
function inFirstLoad(id: string, context: ChunkingContext): boolean {
  if (memo?.context !== context) memo = { context, firstLoad: new Map() };
  const known = memo.firstLoad.get(id);
  if (known !== undefined) return known;
  const seen = new Set<string>([id]);
  const queue = [id];
  let found = false;
  while (queue.length > 0 && !found) {
    const current = queue.shift()!;
    if (memo.firstLoad.get(current) === true || FIRST_LOAD_MODULES.some((seed) => seed.test(current))) found = true;
    for (const importer of context.getModuleInfo(current)?.importers ?? []) {
      if (!seen.has(importer)) {
        seen.add(importer);
        queue.push(importer);
      }
    }
  }
  memo.firstLoad.set(id, found);
  return found;
}

const isLibrary = (id: string) => id.includes("/node_modules/") || !id.includes("/app/");

/**
 * Rolldown's `codeSplitting.groups`: the libraries first (a group takes its modules' dependencies along, and the
 * libraries must not end up in `app`), then the app's modules. Anything else is left to Rolldown's own chunking.
 */
export const FIRST_LOAD_GROUPS = [
  {
    priority: 2,
    name: (id: string, context: ChunkingContext) => (isLibrary(id) && inFirstLoad(id, context) ? "vendor" : null),
  },
  {
    priority: 1,
    name: (id: string, context: ChunkingContext) =>
      !isLibrary(id) && !ENTRY_MODULE.test(id) && inFirstLoad(id, context) ? "app" : null,
  },
];
