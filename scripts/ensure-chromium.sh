#!/usr/bin/env bash
# The explorer test drives Debian's Chromium (playwright-core never downloads a browser here).
# Installs the `chromium` package when it is missing: as root directly, otherwise through sudo.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
echo "Installing Debian's chromium package for the explorer test…" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
  echo "chromium is missing and this user cannot install it: apt-get install chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y --no-install-recommends chromium >/dev/null ||
  { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y --no-install-recommends chromium >/dev/null; }
