#!/bin/bash
# Issue 15's second tuning campaign: for each variant named, SPSA on game
# results (`koma tune --spsa`), then the tuned weights played against the
# variant's own weights (`koma tune --versus`) at a deeper fixed node count.
# The tuned weights are worth shipping (as `engine.eval` in the variant file)
# only when that match's 95% interval lies above 50%. Results, with the
# commands, in tests/match/tuning.txt.
#
#   bash tests/match/spsa_all.sh VARIANT[:ITERATIONS[:NODES]] ...
#   (env: KOMA=target/release/koma OUT=/tmp/spsa-all ITER=10000 NODES=2000
#    PLIES=3 SEED=11 CHECK_GAMES=1000 CHECK_NODES=4x NODES)
#
# Everything is played at fixed node counts, so a loaded machine makes the
# run slower, never different: the same command gives the same weights.
set -u
cd "$(dirname "$0")/../.."
KOMA=${KOMA:-target/release/koma}
OUT=${OUT:-/tmp/spsa-all}
PLIES=${PLIES:-3}
SEED=${SEED:-11}
CHECK_GAMES=${CHECK_GAMES:-1000}
mkdir -p "$OUT"
if [ $# -eq 0 ]; then
  echo "usage: bash tests/match/spsa_all.sh VARIANT[:ITERATIONS[:NODES]] ..." >&2
  exit 2
fi
for arg in "$@"; do
  IFS=: read -r v iter nodes <<< "$arg"
  iter=${iter:-${ITER:-10000}}
  nodes=${nodes:-${NODES:-2000}}
  check_nodes=${CHECK_NODES:-$((nodes * 4))}
  echo "== $v: --spsa $iter --nodes $nodes, then --versus $CHECK_GAMES games at $check_nodes nodes ($(date -u +%FT%TZ))"
  "$KOMA" tune --variant "$v" --spsa "$iter" --nodes "$nodes" --random-plies "$PLIES" \
    --seed "$SEED" > "$OUT/$v.weights.txt" 2> "$OUT/$v.log" || {
    echo "$v: tune failed"; tail -n 3 "$OUT/$v.log"; continue; }
  tr '\n' ' ' < "$OUT/$v.weights.txt"; echo
  echo "   SPSA done $(date -u +%FT%TZ)"
  "$KOMA" tune --variant "$v" --versus "$OUT/$v.weights.txt" --games "$CHECK_GAMES" \
    --nodes "$check_nodes" --random-plies "$PLIES" --seed 7 > "$OUT/$v.versus.txt" 2>> "$OUT/$v.log" || {
    echo "$v: versus failed"; tail -n 3 "$OUT/$v.log"; continue; }
  tail -n 1 "$OUT/$v.versus.txt"
done
echo "== done $(date -u +%FT%TZ)"
