#!/usr/bin/env bash
# Installs what n8n's queue mode needs on this machine, from Debian's packages, when it is missing:
# the PostgreSQL server (initdb, postgres) and Redis (redis-server). Used by `npm run start:queue`
# and by .ci/run. Does nothing when both are installed.
set -euo pipefail

missing=()
if ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null; then missing+=(postgresql); fi
if ! command -v redis-server >/dev/null 2>&1 && [ ! -x /usr/bin/redis-server ]; then missing+=(redis-server); fi
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "Queue mode needs ${missing[*]}: install them (apt-get install ${missing[*]}) as root." >&2
    exit 1
  fi
fi
echo "Installing ${missing[*]} from Debian's packages…"
$SUDO apt-get update -qq
# The packages' own services are not used: the queue stack starts its own servers on free ports.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
