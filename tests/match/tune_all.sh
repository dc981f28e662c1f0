#!/bin/bash
# Issue 15's tuning campaign: for each variant named (default: every embedded
# variant, `koma list`), self-play games, a fit of the evaluation's weights to
# their results (Texel's method), then the fitted weights played against the
# variant's own weights (`koma tune --versus`) at a deeper fixed node count.
# The fitted weights are worth shipping (as `engine.eval` in the variant file)
# only when that match's 95% interval lies above 50%. Results, with the
# commands, in tests/match/tuning.txt.
#
#   bash tests/match/tune_all.sh [VARIANT ...]
#   (env: KOMA=target/release/koma OUT=/tmp/tune-all GAMES=4000 NODES=2000
#    PLIES=3 CHECK_GAMES=1000 CHECK_NODES=8000)
set -u
cd "$(dirname "$0")/../.."
KOMA=${KOMA:-target/release/koma}
OUT=${OUT:-/tmp/tune-all}
GAMES=${GAMES:-4000}
NODES=${NODES:-2000}
PLIES=${PLIES:-3}
CHECK_GAMES=${CHECK_GAMES:-1000}
CHECK_NODES=${CHECK_NODES:-8000}
mkdir -p "$OUT"
if [ $# -eq 0 ]; then
  set -- $("$KOMA" list | awk 'NR > 1 {print $1}')
fi
for v in "$@"; do
  echo "== $v $(date -u +%FT%TZ)"
  "$KOMA" tune --variant "$v" --self-play "$GAMES" --nodes "$NODES" --random-plies "$PLIES" \
    --seed 1 --results "$OUT/$v.games.txt" --rounds 30 > "$OUT/$v.fit.txt" 2> "$OUT/$v.log" || {
    echo "$v: tune failed"; tail -3 "$OUT/$v.log"; continue; }
  grep -v '^#' "$OUT/$v.fit.txt" > "$OUT/$v.weights.txt"
  grep '^#' "$OUT/$v.fit.txt" | tail -1
  tr '\n' ' ' < "$OUT/$v.weights.txt"; echo
  "$KOMA" tune --variant "$v" --versus "$OUT/$v.weights.txt" --games "$CHECK_GAMES" \
    --nodes "$CHECK_NODES" --random-plies "$PLIES" --seed 7 > "$OUT/$v.versus.txt" 2>> "$OUT/$v.log"
  tail -1 "$OUT/$v.versus.txt"
done
echo "== done $(date -u +%FT%TZ)"
