#!/usr/bin/env bash
# Installs Debian's PostgreSQL server when its binaries are missing (the test command runs the
# conformance and integration suites on PostgreSQL too; CI machines start without it).
# The package's own cluster is not created: scripts/pg-server.sh makes a throwaway one on
# loopback instead, so nothing is left listening on the default port.
# Prints the directory holding initdb and pg_ctl.
set -euo pipefail
bindir() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  return 1
}
if ! bindir >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # No "main" cluster on 5432: only our own loopback clusters (see pg-server.sh).
  $SUDO mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.d/phylactery.conf >/dev/null
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
bindir
