#!/usr/bin/env bash
# Installs Debian chromium for Playwright when it is missing (Playwright cannot download here).
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation
fi
