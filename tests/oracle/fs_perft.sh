#!/usr/bin/env bash
# Run Fairy-Stockfish's native perft through its UCI interface; print the
# engine's id, its "Nodes searched" line and the time it took.
#
# Usage: tests/oracle/fs_perft.sh VARIANT FEN DEPTH [--divide]
#   e.g. tests/oracle/fs_perft.sh judkins 'rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1' 6
#        tests/oracle/fs_perft.sh shogi startpos 5
# FEN may be "startpos" (the variant's own start position in Fairy-Stockfish).
# Engine: $FAIRY_STOCKFISH if set, else `fairy-stockfish` on PATH, else
# /usr/games/fairy-stockfish (Debian: apt-get install -y fairy-stockfish; that
# package's build is "LB", i.e. large boards, so 9x9 shogi works).
#
# What is sent (one engine process, stdin closed after "quit"; FS finishes the
# perft before it quits):
#   uci / setoption name UCI_Variant value VARIANT / position fen FEN /
#   isready / go perft DEPTH / quit
# FS prints no time for perft, so the script times the run with the wall
# clock and subtracts the engine's start-up time (the same commands with
# "go perft 1"), printing both.
#
# Caveat: FS's perft counts a pawn-drop mate (a swallow-drop mate in tori
# shogi) as a move although these games forbid it, so its counts can exceed
# the rule-correct ones (judkins seed start, depth 5: FS 4756524, rule-correct 4756523).
set -euo pipefail
if [ $# -lt 3 ]; then sed -n '2,23p' "$0" >&2; exit 2; fi
variant=$1 fen=$2 depth=$3 divide=${4:-}
fs=${FAIRY_STOCKFISH:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
if [ "$fen" = startpos ]; then pos="position startpos"; else pos="position fen $fen"; fi
run() { printf 'uci\nsetoption name UCI_Variant value %s\n%s\nisready\ngo perft %s\nquit\n' "$variant" "$pos" "$1" | "$fs"; }
now() { date +%s.%N; }
t0=$(now); run 1 >/dev/null; t1=$(now)
out=$(run "$depth"); t2=$(now)
echo "engine: $fs"
printf '%s\n' "$out" | grep -E '^(id name|info string variant)' || true
if [ "$divide" = --divide ]; then printf '%s\n' "$out" | grep -E '^[A-Za-z+]*@?[a-z]*[0-9]*[a-z][0-9]+[+-]?: [0-9]+$' || true; fi
printf '%s\n' "$out" | grep -E '^Nodes searched' || { echo "no node count in the engine's output:" >&2; printf '%s\n' "$out" >&2; exit 1; }
nodes=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: *//p')
awk -v n="$nodes" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN{
  s = b - a; w = c - b; t = w - s; if (t <= 0) t = w;
  printf "wall %.3f s, engine start-up %.3f s, perft %.3f s, %.0f nodes/s\n", w, s, t, n / t }'
