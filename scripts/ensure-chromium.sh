#!/usr/bin/env bash
# Installs Debian chromium (and fonts, including emoji used by agent icons) for Playwright
# when missing (Playwright cannot download browsers here).
set -euo pipefail
PKGS=()
[ -x /usr/bin/chromium ] || PKGS+=(chromium fonts-liberation)
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || PKGS+=(fonts-noto-color-emoji)
if [ ${#PKGS[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${PKGS[@]}"
fi
