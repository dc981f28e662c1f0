#!/usr/bin/env bash
# Perft speed of koma, Fairy-Stockfish and Sjaak II on the same positions, in
# one run on one machine, with the ratio of koma's nodes per second to each.
#
# Usage (from the repository root):  bash tests/bench/compare.sh [--quick]
#   --quick: Judkins perft 5 and shogi perft 4 instead of 6 and 5.
# Needs: cargo build --release; Fairy-Stockfish (apt-get install fairy-stockfish,
# or FAIRY_STOCKFISH=/path); Sjaak II (apt-get install sjaakii) is optional.
# All counts are leaf nodes. Fairy-Stockfish and Sjaak II count pawn-drop
# mates as moves, so their totals can exceed koma's by those few nodes.
set -euo pipefail
cd "$(dirname "$0")/../.."
koma=target/release/koma
[ -x "$koma" ] || { echo "build first: cargo build --release" >&2; exit 2; }
fs=${FAIRY_STOCKFISH:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
sjaak=$(command -v sjaakii || echo /usr/games/sjaakii)
jd=6 sd=5
[ "${1:-}" = --quick ] && jd=5 sd=4

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); one thread each"
printf '%-28s %-32s %12s %9s %14s %9s\n' position engine nodes seconds nodes/s koma/x

row() { printf '%-28s %-32s %12s %9.3f %14.0f %9s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }

bench() {
  local label=$1 slug=$2 fsname=$3 fen=$4 depth=$5
  local out nodes secs knps
  out=$("$koma" perft --variant "$slug" --fen "$fen" --depth "$depth" --stats 2>&1)
  nodes=$(echo "$out" | sed -n 's/^total: //p')
  secs=$(echo "$out" | sed -n 's/.* nodes in \([0-9.]*\) s.*/\1/p')
  knps=$(echo "$nodes $secs" | awk '{printf "%.0f", $1/$2}')
  row "$label perft $depth" "koma $(git rev-parse --short HEAD 2>/dev/null || echo)" "$nodes" "$secs" "$knps" "1.00"
  if [ -x "$fs" ]; then
    out=$(bash tests/oracle/fs_perft.sh "$fsname" "$fen" "$depth")
    local n s r
    n=$(echo "$out" | sed -n 's/^Nodes searched: //p')
    s=$(echo "$out" | sed -n 's/.*perft \([0-9.]*\) s.*/\1/p')
    r=$(echo "$n $s" | awk '{printf "%.0f", $1/$2}')
    row "" "$(echo "$out" | sed -n 's/^id name //p')" "$n" "$s" "$r" "$(awk -v a="$knps" -v b="$r" 'BEGIN{printf "%.2f", a/b}')"
  fi
  if [ -x "$sjaak" ]; then
    out=$(printf 'variant %s\nsetboard %s\nperft %s\nquit\n' "$fsname" "$fen" "$depth" | "$sjaak" 2>&1 | grep -a "nps" | tail -1)
    local n s
    n=$(echo "$out" | awk '{print $2}')
    s=$(echo "$out" | awk '{print $3}')
    if [ -n "$n" ] && [ "$s" != "0.00" ]; then
      local r
      r=$(echo "$n $s" | awk '{printf "%.0f", $1/$2}')
      row "" "Sjaak II $(dpkg-query -W -f='${Version}' sjaakii 2>/dev/null)" "$n" "$s" "$r" "$(awk -v a="$knps" -v b="$r" 'BEGIN{printf "%.2f", a/b}')"
    fi
  fi
}

bench "Judkins (seed start)" judkins-shogi judkins 'rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1' "$jd"
bench "Shogi (start)" shogi shogi 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1' "$sd"
