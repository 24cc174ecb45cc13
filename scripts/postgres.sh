#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for railbird's tests and local runs, from Debian's packages.
#   scripts/postgres.sh up [DIR] [PORT]   -> prints the database URL on stdout
#   scripts/postgres.sh down [DIR]
set -euo pipefail
cmd=${1:-up}
dir=$(realpath -m "${2:-var/pg}")
port=${3:-55432}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/pg_ctl" ]; then
  echo "postgres.sh: PostgreSQL server binaries not found; install them with: apt-get install -y postgresql" >&2
  exit 3
fi

as_owner() {
  # initdb and postgres refuse to run as root; use the postgres account when we are root.
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  up)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_owner "$bindir/initdb" -D "$dir" -U railbird --auth=trust -E UTF8 >/dev/null
    fi
    if ! as_owner "$bindir/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      as_owner "$bindir/pg_ctl" -D "$dir" -w -t 60 -l "$dir/server.log" \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    fi
    as_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U railbird -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname='railbird'" | grep -q 1 ||
      as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U railbird railbird
    echo "postgresql://railbird@127.0.0.1:$port/railbird"
    ;;
  down)
    if [ -f "$dir/PG_VERSION" ]; then
      as_owner "$bindir/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "usage: $0 up|down [DIR] [PORT]" >&2
    exit 2
    ;;
esac
