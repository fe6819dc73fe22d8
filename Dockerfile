# Production image: `docker build -t polyglot .` then
#   docker run -p 3000:3000 -v polyglot-data:/data polyglot
# serves the site on embedded defaults (PGlite in /data; without SESSION_SECRET, a session secret kept in /data).
# Ops set APP_STAGE=production together with SESSION_SECRET and SMTP_URL (required then) and APP_URL; see the
# configuration table in README.md. No secret is baked into the image.

# --- deps: production dependencies only -------------------------------------------------------------
FROM node:24-bookworm-slim AS deps
# Lets npm trust the build machine's TLS chain (a path, passed with --build-arg; nothing is stored in the image).
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
# typescript (+ its native binary) and @types/* come in only as optional peers of react-router/i18next: nothing
# imports them at runtime, so they are dropped (~35 MB).
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && rm -rf node_modules/typescript node_modules/@typescript node_modules/@types node_modules/.bin/tsc

# --- build: full install (scripts enabled: the `node` devDependency needs its preinstall) and build ---
FROM node:24-bookworm-slim AS build
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# drizzle/ (SQL migrations) may not exist yet: make sure there is always a folder to copy.
RUN npm run build && mkdir -p drizzle

# --- runtime ---------------------------------------------------------------------------------------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
# Application files stay root-owned (read-only for the app); only /data is writable by the `node` user.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
COPY package.json package-lock.json server.ts ./
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# Exec form: node is PID 1 and receives SIGTERM itself (server.ts drains requests and exits 0).
CMD ["node", "server.ts"]
