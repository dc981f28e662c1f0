#!/usr/bin/env bash
# Runs the matches whose output is kept in tests/match/results.txt:
#   bash tests/match/run_all.sh            (from the repository root, after cargo build --release)
# writes tests/match/results.txt (and echoes it).
cd "$(dirname "$0")/../.." || exit 2
out=tests/match/results.txt
FS=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
{
  echo "# koma match results (tests/match/match.py)"
  echo "# date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# machine: $(uname -srm); nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "# koma:    $(git rev-parse --short HEAD 2>/dev/null) (working tree; target/release/koma built with cargo build --release)"
  echo "# fairy-stockfish: $FS, $(echo quit | "$FS" 2>/dev/null | head -1); Debian package $(dpkg-query -W -f='${Version}' fairy-stockfish 2>/dev/null)"
  echo "# pyffish: $(python3 -c 'import pyffish; print(".".join(map(str, pyffish.version())))')"
  echo "# python:  $(python3 --version 2>&1)"
  echo
} > "$out"
run() {
  { printf "$ "; printf "%q " "$@"; echo; } >> "$out"
  "$@" >> "$out" 2>&1
  echo "(exit status $?)" >> "$out"
  echo >> "$out"
}
echo "## (1) judkins vs the random mover" >> "$out"
run python3 tests/match/match.py --variant judkins --opponent random --games 20 --movetime 100 --seed 1
echo "## (2) judkins vs Fairy-Stockfish (full strength)" >> "$out"
run python3 tests/match/match.py --variant judkins --opponent fairy-stockfish --games 10 --movetime 100 --seed 1
echo "## (2b) judkins vs Fairy-Stockfish at Skill Level 0" >> "$out"
run python3 tests/match/match.py --variant judkins --opponent fairy-stockfish --games 4 --movetime 100 --fs-skill 0 --seed 1
echo "## (3) the other variants vs the random mover" >> "$out"
for v in shogi minishogi gorogoro euroshogi yarishogi torishogi dobutsu kyotoshogi shoshogi; do
  run python3 tests/match/match.py --variant $v --opponent random --games 4 --movetime 50 --seed 1
done
echo "## (4) pyffish's own four-field start FEN with '[-]' hands, sent verbatim (koma reads it)" >> "$out"
run python3 tests/match/match.py --variant minishogi --opponent random --games 2 --movetime 50 --seed 1 --start-fen 'rbsgk/4p/5/P4/KGSBR[-] w 0 1'
echo "## (5) kyotoshogi again, koma given the current FEN instead of the moves (its own moves checked; diagnostic)" >> "$out"
run python3 tests/match/match.py --variant kyotoshogi --opponent random --games 4 --movetime 50 --seed 1 --send current
cat "$out"
