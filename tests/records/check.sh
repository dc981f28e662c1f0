#!/usr/bin/env bash
# Records koma writes, read by libraries nobody on koma wrote: cshogi (PyPI),
# json-kifu-format and tsshogi (npm, pinned by js/package-lock.json). Installs
# what it needs, builds koma, runs check.py; exits non-zero on any difference.
#
#   bash tests/records/check.sh [--games N]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python3 -c "import cshogi" 2>/dev/null || python3 -m pip install --quiet "cshogi==1.1.0"
(cd "$here/js" && npm ci --no-audit --no-fund --loglevel=error)
(cd "$root" && cargo build --quiet)
python3 "$here/check.py" --koma "$root/target/debug/koma" "$@"
