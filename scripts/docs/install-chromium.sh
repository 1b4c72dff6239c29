#!/usr/bin/env bash
# install-chromium.sh: the browser the site's tests drive (docs/site/scripts/browser-test.mjs, through playwright-core,
# which downloads no browser of its own): Debian's `chromium` package, installed with apt-get when it is missing.
# Needs root (or sudo) on Debian or Ubuntu; elsewhere install Chromium yourself and set CHROMIUM to its path.
set -euo pipefail
if command -v chromium > /dev/null 2>&1; then
  echo "chromium already installed: $(chromium --version 2>/dev/null || command -v chromium)"
  exit 0
fi
sudo=()
[[ "$(id -u)" -eq 0 ]] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq chromium > /dev/null
echo "chromium installed: $(chromium --version 2>/dev/null || command -v chromium)"
