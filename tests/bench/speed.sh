#!/usr/bin/env bash
# koma against hand-written, shogi-only move generators (haitaka, rsshogi) on
# 9×9 shogi perft, side by side in one run (issue 18).
#
# Usage (from the repository root):
#   bash tests/bench/speed.sh [ROUNDS]          # wall time, interleaved rounds (default 9)
#   bash tests/bench/speed.sh --instructions    # instructions per leaf (valgrind cachegrind)
# Needs: cargo build --release (koma); the benchmark crate in
# tests/bench/shogi-speed (its own workspace, built here; koma never links it);
# valgrind for --instructions.
#
# Each round runs every generator once on each position, in turn, so that the
# machine's load (shared, noisy) falls on all of them alike. Reported: min and
# median seconds of the perft itself (each program times its own search, not
# its start-up), and x/koma = the other's min time over koma's: koma is at
# least as fast where it is >= 1.00. Every run's leaf count must equal the
# others', or the script stops.
set -euo pipefail
cd "$(dirname "$0")/../.."
koma=target/release/koma
[ -x "$koma" ] || { echo "build first: cargo build --release" >&2; exit 2; }
(cd tests/bench/shogi-speed && cargo build --release --quiet)
other=tests/bench/shogi-speed/target/release/shogi-speed

start='lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
mid='lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1'
positions=("start|$start|5" "mid-game|$mid|4")
engines=(koma haitaka rsshogi)

# run ENGINE DEPTH SFEN -> "nodes seconds"
run() {
  case $1 in
    koma) "$koma" perft --variant shogi --sfen "$3" --depth "$2" --stats 2>&1 |
            sed -n 's/^\([0-9]*\) nodes in \([0-9.]*\) s.*/\1 \2/p' ;;
    *) "$other" "$1" "$2" "$3" | sed -n 's/^nodes \([0-9]*\) seconds \([0-9.]*\)$/\1 \2/p' ;;
  esac
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); one thread each"
echo "# koma $(git rev-parse --short HEAD 2>/dev/null) $( [ -n "$(git status --porcelain -- src 2>/dev/null)" ] && echo '(working tree)'); haitaka $(sed -n 's/^haitaka = "\(.*\)"/\1/p' tests/bench/shogi-speed/Cargo.toml); rsshogi $(sed -n 's/^rsshogi = "\(.*\)"/\1/p' tests/bench/shogi-speed/Cargo.toml)"
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${1:-}" = --instructions ]; then
  command -v valgrind >/dev/null || { echo "valgrind is needed for --instructions" >&2; exit 2; }
  printf '%-10s %-8s %6s %12s %16s %12s\n' position engine depth leaves instructions per-leaf
  for p in "${positions[@]}"; do
    IFS='|' read -r name sfen depth <<<"$p"
    depth=$((depth - 1)) # valgrind is ~50x slower: one ply less
    for e in "${engines[@]}"; do
      case $e in
        koma) cmd=("$koma" perft --variant shogi --sfen "$sfen" --depth "$depth") ;;
        *) cmd=("$other" "$e" "$depth" "$sfen") ;;
      esac
      out=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "${cmd[@]}" 2>&1)
      leaves=$(echo "$out" | sed -n 's/^total: //p; s/^nodes \([0-9]*\) .*/\1/p' | head -1)
      ir=$(echo "$out" | sed -n 's/.*I *refs: *//p' | tr -d ,)
      printf '%-10s %-8s %6s %12s %16s %12.1f\n' "$name" "$e" "$depth" "$leaves" "$ir" "$(echo "$ir $leaves" | awk '{print $1/$2}')"
    done
  done
  exit 0
fi

rounds=${1:-9}
declare -A times nodes
for ((r = 1; r <= rounds; r++)); do
  for p in "${positions[@]}"; do
    IFS='|' read -r name sfen depth <<<"$p"
    for e in "${engines[@]}"; do
      read -r n s < <(run "$e" "$depth" "$sfen")
      [ -n "${n:-}" ] || { echo "$e gave no count on $name" >&2; exit 1; }
      if [ -n "${nodes[$name]:-}" ] && [ "${nodes[$name]}" != "$n" ]; then
        echo "leaf counts differ on $name: $e $n, before ${nodes[$name]}" >&2; exit 1
      fi
      nodes[$name]=$n
      times[$name.$e]="${times[$name.$e]:-} $s"
    done
  done
done

stat() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {printf "%.4f %.4f\n", a[1], a[int((NR+1)/2)]}'; }
printf '%-10s %6s %10s %-8s %9s %9s %8s\n' position depth leaves engine min-s median-s x/koma
for p in "${positions[@]}"; do
  IFS='|' read -r name sfen depth <<<"$p"
  read -r kmin _ < <(echo "${times[$name.koma]}" | stat)
  for e in "${engines[@]}"; do
    read -r mn md < <(echo "${times[$name.$e]}" | stat)
    printf '%-10s %6s %10s %-8s %9s %9s %8.2f\n' "$name" "$depth" "${nodes[$name]}" "$e" "$mn" "$md" "$(echo "$mn $kmin" | awk '{print $1/$2}')"
  done
done
echo "# $rounds interleaved rounds; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
