#!/usr/bin/env bash
# A throw-away PostgreSQL cluster on 127.0.0.1 for the tests (issue 24):
#
#   Scripts/postgres-cluster.sh start [DIR] [PORT]   # prints: export OAK_TEST_POSTGRES=postgres://oak@127.0.0.1:PORT/oak
#   Scripts/postgres-cluster.sh stop  [DIR]
#   Scripts/postgres-cluster.sh pause [DIR]          # the server stops; its data stays
#   Scripts/postgres-cluster.sh resume [DIR] [PORT]  # the paused server starts again
#
# Needs Debian's postgresql package. initdb refuses to run as root, so as
# root the cluster belongs to the package's `postgres` user; otherwise to
# the caller. Trust authentication on loopback only, fsync off: a cluster
# for tests, never for data.
set -euo pipefail

command=${1:-}
dir=${2:-/tmp/oak-postgres}
port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "PostgreSQL is not installed: apt-get install postgresql" >&2
    exit 1
fi
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# Starts the server. It outlives this script: it must not keep open what
# this script inherited beyond its standard streams (a test's process
# watcher holds a socket there, whose end it awaits), so those are closed.
serve() {
    (
        for fd in /proc/self/fd/*; do
            fd=${fd##*/}
            if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
        done
        as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start \
            </dev/null >/dev/null
    )
}

case "$command" in
start)
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$dir"; fi
    chmod 700 "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U oak --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log"
    serve
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U oak oak
    echo "export OAK_TEST_POSTGRES=postgres://oak@127.0.0.1:$port/oak"
    ;;
stop)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true; fi
    rm -rf "$dir"
    ;;
pause)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
resume)
    serve
    ;;
*)
    echo "usage: $0 start|stop|pause|resume [DIR] [PORT]" >&2
    exit 64
    ;;
esac
