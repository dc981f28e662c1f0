#!/usr/bin/env bash
# Two koma binaries and haitaka on the speed.sh positions, interleaved round
# by round, min and median of each one's perft time (issue 18): how much a
# change to the generator moved the wall time, beside haitaka in the same run.
#
# Usage (from the repository root, after speed.sh has built the benchmark crate):
#   bash tests/bench/ab.sh KOMA_A KOMA_B [ROUNDS]     (default 15 rounds)
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$1; B=$2; R=${3:-15}
H=tests/bench/shogi-speed/target/release/shogi-speed
[ -x "$H" ] || { echo "build the benchmark crate first: bash tests/bench/speed.sh 1" >&2; exit 2; }
start='lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
mid='lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1'
declare -A t
koma_time() { "$1" perft --variant shogi --sfen "$2" --depth "$3" --stats 2>&1 | sed -n 's/^[0-9]* nodes in \([0-9.]*\) s.*/\1/p'; }
for ((r = 0; r < R; r++)); do
  for pos in start mid; do
    if [ $pos = start ]; then sfen=$start; d=5; else sfen=$mid; d=4; fi
    t[$pos.A]="${t[$pos.A]:-} $(koma_time "$A" "$sfen" $d)"
    t[$pos.B]="${t[$pos.B]:-} $(koma_time "$B" "$sfen" $d)"
    t[$pos.H]="${t[$pos.H]:-} $("$H" haitaka $d "$sfen" | sed -n 's/^nodes [0-9]* seconds \([0-9.]*\)$/\1/p')"
  done
done
echo "# $R interleaved rounds; A=$A B=$B H=haitaka; load $(cut -d' ' -f1-3 /proc/loadavg)"
for pos in start mid; do
  for e in A B H; do
    echo "$pos $e $(echo ${t[$pos.$e]} | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {printf "min %.4f med %.4f", a[1], a[int((NR+1)/2)]}')"
  done
done
