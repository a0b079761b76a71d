#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the mirror's tests and prints the
# URL to reach it; `postgres.sh stop DIR` stops it and removes it.
#
#   eval "$(.ci/postgres.sh start)"     # exports ORDERMSG_TEST_POSTGRES, PGTMP
#   .ci/postgres.sh stop "$PGTMP"
#
#   eval "$(.ci/postgres.sh start $$)"  # the same, and stopped when process $$ ends
#
# With a process id, a watchdog in a session of its own stops the cluster
# once that process has ended, however it ended: a script's EXIT trap does
# not run when the script is killed with SIGKILL (a CI time limit), and the
# cluster, a daemon, would outlive it.
#
# PostgreSQL is installed from the distribution's packages when missing. It
# refuses to run as root, so the cluster belongs to the postgres user (or the
# current user when not root), in a temporary folder, on a free loopback port,
# reachable only over 127.0.0.1 and with password authentication.
set -euo pipefail

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1; }

start() {
  if [ -z "$(bindir)" ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "postgres.sh: PostgreSQL is not installed (no /usr/lib/postgresql/*/bin), and installing it needs root:" >&2
      echo "  run 'sudo apt-get install postgresql' (or this script as root), then again: eval \"\$(.ci/postgres.sh start)\"" >&2
      exit 1
    fi
    echo "installing postgresql from apt" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
  fi
  local bin user dir port pw
  bin=$(bindir)
  user=$(id -un)
  [ "$(id -u)" = 0 ] && user=postgres
  dir=$(mktemp -d /tmp/ordermsg-pg.XXXXXX)
  # Until the caller has the cluster's folder, this script stops it if it
  # ends early: an error, or a signal (bash runs the EXIT trap for SIGTERM,
  # SIGHUP and SIGINT too).
  trap "stop '$dir'; rm -rf '$dir'" EXIT
  chown "$user" "$dir"
  pw=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
  printf '%s\n' "$pw" >"$dir/pw"
  chown "$user" "$dir/pw"
  # A free port: ask the kernel for one.
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo $((20000 + RANDOM % 20000)))
  as() { if [ "$(id -u)" = 0 ]; then su -s /bin/sh "$user" -c "$*"; else sh -c "$*"; fi; }
  as "'$bin/initdb' -D '$dir/data' -U mirror --pwfile='$dir/pw' -A scram-sha-256 -E UTF8 --no-locale" >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  as "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -o \"-h 127.0.0.1 -p $port -k '$dir' -c fsync=off -c max_connections=200\" start" >&2 ||
    { cat "$dir/server.log" >&2; exit 1; }
  if [ -n "${1:-}" ]; then
    setsid "$0" watch "$1" "$dir" </dev/null >/dev/null 2>&1 &
  fi
  printf 'export ORDERMSG_TEST_POSTGRES=%q\nexport PGTMP=%q\n' "postgres://mirror:$pw@127.0.0.1:$port/postgres?sslmode=disable" "$dir"
  trap - EXIT
}

# watch PID DIR stops the cluster in DIR once process PID has ended.
watch() {
  while kill -0 "$1" 2>/dev/null; do sleep 2; done
  stop "$2"
}

stop() {
  local dir=$1 bin user
  [ -d "$dir/data" ] || return 0
  bin=$(bindir)
  user=$(stat -c %U "$dir")
  if [ "$(id -u)" = 0 ]; then
    su -s /bin/sh "$user" -c "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop" >&2 || true
  else
    "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start "${2:-}" ;;
  stop) stop "${2:?postgres.sh stop DIR}" ;;
  watch) watch "${2:?postgres.sh watch PID DIR}" "${3:?postgres.sh watch PID DIR}" ;;
  *) echo "usage: $0 start [PID] | stop DIR" >&2; exit 2 ;;
esac
