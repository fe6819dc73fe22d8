#!/usr/bin/env bash
# The test suite drives Chromium and starts a real PostgreSQL server. It uses the same ones the tests do:
#   Chromium:   CHROMIUM_PATH (as playwright.config.ts), else Debian's /usr/bin/chromium
#   PostgreSQL: PG_BIN (a folder with initdb, pg_ctl, postgres), else Debian's /usr/lib/postgresql/<version>/bin,
#               else `pg_config --bindir` (as scripts/support/postgres.ts)
#   PgBouncer:  PGBOUNCER (a pgbouncer binary), else Debian's /usr/sbin/pgbouncer, else `pgbouncer` on the PATH
#               (as scripts/support/pgbouncer.ts)
#   A CJK font: Chinese and Japanese pages are checked as rendered; where fontconfig knows no Chinese font, Debian's
#               fonts-noto-cjk (macOS and Windows have their own)
# On Debian, run as root, missing ones are installed from Debian's repositories; elsewhere it says what to set.
set -euo pipefail
has_server_tools() { [ -x "$1/initdb" ] && [ -x "$1/pg_ctl" ] && [ -x "$1/postgres" ]; }

missing=()
problems=()
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || problems+=("CHROMIUM_PATH=$CHROMIUM_PATH is not an executable")
elif [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
if [ -n "${PG_BIN:-}" ]; then
  has_server_tools "$PG_BIN" || problems+=("PG_BIN=$PG_BIN has no initdb, pg_ctl and postgres")
elif ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  bindir="$(pg_config --bindir 2>/dev/null || true)"
  { [ -n "$bindir" ] && has_server_tools "$bindir"; } || missing+=(postgresql)
fi
if [ -n "${PGBOUNCER:-}" ]; then
  [ -x "$PGBOUNCER" ] || problems+=("PGBOUNCER=$PGBOUNCER is not an executable")
elif [ ! -x /usr/sbin/pgbouncer ] && ! command -v pgbouncer >/dev/null 2>&1; then
  missing+=(pgbouncer)
fi
if command -v fc-list >/dev/null 2>&1; then
  [ -n "$(fc-list :lang=zh family)" ] || missing+=(fonts-noto-cjk)
elif command -v apt-get >/dev/null 2>&1; then
  missing+=(fonts-noto-cjk) # no fontconfig yet: a fresh machine, where Chromium brings it
fi

if [ ${#problems[@]} -gt 0 ]; then
  printf '%s\n' "${problems[@]}" >&2
  exit 1
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "The tests need: ${missing[*]}. Without apt-get, install them yourself and point the tests at them:" >&2
  echo "  CHROMIUM_PATH=/path/to/chromium (or Google Chrome), PG_BIN=/path/to/postgresql/bin and" >&2
  echo "  PGBOUNCER=/path/to/pgbouncer (see README)" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "The tests need: ${missing[*]}. Install them with: sudo apt-get install -y ${missing[*]}" >&2
  echo "(or set CHROMIUM_PATH / PG_BIN / PGBOUNCER to ones you have; see README)" >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian's repositories"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 "${missing[@]}"
