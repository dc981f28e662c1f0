#!/usr/bin/env bash
# The page of `koma serve` in headless chromium (tests/server/browser.py).
# Installs Debian's chromium and chromedriver when they are missing (never a
# browser download of its own), builds koma, and exits non-zero on failure.
# Screenshots go to $SHOTS (default target/browser-shots).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
cargo build --quiet
python3 tests/server/browser.py --koma target/debug/koma --shots "${SHOTS:-target/browser-shots}"
