#!/usr/bin/env bash
# Makes sure the browser suite has its Chromium (Debian's package, /usr/bin/chromium).
# Used by `npm test` and `.ci/run`. Never hangs on a package index that cannot be refreshed:
# it installs from the index already on the machine first, then refreshes it within two minutes
# and tries again. Exits 0 when a browser is there, 1 with the one command to run otherwise.
set -u

browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0

fail() {
  echo "✗ The browser tests need Chromium at $browser and it could not be installed here ($1)." >&2
  echo "  Install it once with:  sudo apt-get install -y chromium   (then run npm test again)" >&2
  echo "  or point CHROMIUM_PATH at another Chromium." >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "no apt-get on this machine"
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else fail "installing needs root"; fi
fi

export DEBIAN_FRONTEND=noninteractive
echo "Installing Debian's chromium for the browser tests…"
if timeout 600 $sudo apt-get install -y -qq chromium >/dev/null 2>&1 && [ -x "$browser" ]; then exit 0; fi
echo "…refreshing the package index (at most 2 minutes) and trying again"
timeout 120 $sudo apt-get update -qq >/dev/null 2>&1 || echo "  (the index could not be fully refreshed; using what is there)"
timeout 600 $sudo apt-get install -y -qq chromium >/dev/null 2>&1 && [ -x "$browser" ] && exit 0
fail "apt-get install chromium failed"
