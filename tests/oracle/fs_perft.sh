#!/usr/bin/env bash
# Run Fairy-Stockfish's native perft through its UCI interface and print the
# lines of its output that carry the node count and the time.
#
# Usage: fs_perft.sh VARIANT FEN DEPTH
#   e.g. tests/oracle/fs_perft.sh judkins 'rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1' 6
#        tests/oracle/fs_perft.sh shogi startpos 5
# FEN may be "startpos" for the variant's own start position.
# Engine: $FAIRY_STOCKFISH if set, else `fairy-stockfish` on PATH, else
# /usr/games/fairy-stockfish (Debian: apt-get install -y fairy-stockfish).
#
# Caveat: Fairy-Stockfish's perft counts a pawn-drop mate (a swallow-drop mate
# in tori shogi) as a move; where the game forbids it, the rule-correct count
# can be smaller (e.g. judkins perft 5 from the seed start: FS 4756524, rule-correct 4756523).
# Lines printed: the per-move divide lines are dropped; "Nodes searched" and the
# timing line are kept, plus a computed "nodes/s" line from wall-clock time.
set -euo pipefail
if [ $# -ne 3 ]; then
  sed -n '2,16p' "$0" >&2; exit 2
fi
variant=$1 fen=$2 depth=$3
fs=${FAIRY_STOCKFISH:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
if [ "$fen" = startpos ]; then pos="position startpos"; else pos="position fen $fen"; fi
start=$(date +%s.%N)
out=$( { printf 'uci\nsetoption name UCI_Variant value %s\n%s\nisready\ngo perft %s\n' "$variant" "$pos" "$depth"
         # keep stdin open until the engine has printed the node count; then quit
         sleep 0.2; while :; do sleep 0.2; done; } | "$fs" | { while IFS= read -r line; do
             printf '%s\n' "$line"; case $line in "Nodes searched"*) break;; esac; done; } ) || true
end=$(date +%s.%N)
printf '%s\n' "$out" | grep -E '^id name|Nodes searched|Total time|Time|nodes|info string' | grep -v '^[a-zA-Z+]*@\?[a-z0-9]*[+-]\?: [0-9]*$' || true
nodes=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: *//p')
awk -v n="$nodes" -v s="$start" -v e="$end" 'BEGIN{t=e-s; printf "wall: %.3f s (includes engine start-up), nodes/s: %.0f\n", t, (t>0? n/t : 0)}'
