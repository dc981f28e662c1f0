#!/usr/bin/env bash
# The edit-test cycle (issue 38): edit one file of the records layer (a
# function added at its end, taken out again after the run: a touch or a
# comment costs the incremental compiler next to nothing), run `cargo test`,
# and time it to the first test result it prints, and to its end. Run it on a tree whose test build is warm (run `cargo test --no-run`
# first), so that it measures the rebuild the edit causes and nothing else.
#
# Usage (from the repository root, or any tree of koma):
#   bash tests/bench/edit-cycle.sh [TREE] [FILE]
#   TREE: the tree to measure (default .); FILE: the file to touch, relative
#   to it (default src/record/mod.rs). CARGO_TARGET_DIR is honoured.
set -euo pipefail
tree=${1:-.}
file=${2:-src/record/mod.rs}
cd "$tree"
[ -f "$file" ] || { echo "edit-cycle: no file $tree/$file" >&2; exit 2; }
cp "$file" "$file.edit-cycle"
trap 'mv "$file.edit-cycle" "$file"' EXIT
printf '\n/// A probe of tests/bench/edit-cycle.sh.\npub fn edit_cycle_probe() -> u64 {\n    %s\n}\n' "$(date +%s%N)" >> "$file"
start=$(date +%s.%N)
first=""
while IFS= read -r line; do
  case "$line" in
    "test result:"*)
      if [ -z "$first" ]; then first=$(date +%s.%N); fi ;;
  esac
done < <(cargo test 2>&1)
end=$(date +%s.%N)
printf 'edit-cycle: %s: edited %s; first test result after %.1f s, cargo test done after %.1f s (load %s)\n' \
  "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" "$file" \
  "$(echo "$first - $start" | bc)" "$(echo "$end - $start" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
