#!/usr/bin/env bash
# Best effort: Debian's poppler-utils (pdfinfo, pdffonts, pdftotext, pdftoppm), so the print-ready PDF tests check
# the typeset book as a printer would. Never fails CI: without it those tests skip and say so. Installs from the
# package index already on the machine (no refresh: that can hang here), within two minutes.
command -v pdfinfo >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || exit 0
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else exit 0; fi
fi
echo "Installing Debian's poppler-utils for the print-ready PDF tests…"
DEBIAN_FRONTEND=noninteractive timeout 120 $sudo apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null 2>&1 \
  || echo "  (poppler-utils could not be installed: the print-ready PDF tests skip)"
exit 0
