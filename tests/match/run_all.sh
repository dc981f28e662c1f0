#!/usr/bin/env bash
# Runs the matches whose output is kept in tests/match/results.txt:
#   bash tests/match/run_all.sh            (from the repository root, after cargo build --release)
# writes tests/match/results.txt (and echoes it). Section (6) needs the engine
# koma had before issue 15 ("an opponent worth playing") as KOMA_BASE (default
# /tmp/koma-base), built from the commit the engine work started at:
#   mkdir /tmp/koma-old && git archive 2c3e772 | tar -x -C /tmp/koma-old
#   (cd /tmp/koma-old && cargo build --release) && cp /tmp/koma-old/target/release/koma /tmp/koma-base
#   bash tests/match/run_all.sh           everything
#   bash tests/match/run_all.sh strength  section (6) only, appended to results.txt
#   bash tests/match/run_all.sh generic   section (9) only (lance shogi, untuned, against KOMA_BASE), appended
#   bash tests/match/run_all.sh ladder    section (10) only (shogi and minishogi ladders), appended
cd "$(dirname "$0")/../.." || exit 2
out=tests/match/results.txt
BASE=${KOMA_BASE:-/tmp/koma-base}
only=${1:-all}
FS=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
header() {
  echo "# koma match results (tests/match/match.py)"
  echo "# date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# machine: $(uname -srm); nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "# koma:    $(git rev-parse --short HEAD 2>/dev/null) (working tree; target/release/koma built with cargo build --release)"
  echo "# fairy-stockfish: $FS, $(echo quit | "$FS" 2>/dev/null | head -1); Debian package $(dpkg-query -W -f='${Version}' fairy-stockfish 2>/dev/null)"
  echo "# pyffish: $(python3 -c 'import pyffish; print(".".join(map(str, pyffish.version())))')"
  echo "# python:  $(python3 --version 2>&1)"
  echo
}
[ "$only" = all ] && header > "$out"
run() {
  { printf "$ "; printf "%q " "$@"; echo; } >> "$out"
  "$@" >> "$out" 2>&1
  echo "(exit status $?)" >> "$out"
  echo >> "$out"
}
strength() {
  {
    echo "## (6) issue 15: strength at 50 ms a move on Judkins, 100 games each, the openings of"
    echo "##     tests/match/books/judkins.txt each played with both colours. The machine is shared"
    echo "##     (2 cores; other builds and fuzzers run): each match prints the load average at its"
    echo "##     start and end, and timings are noisy. $(date -u '+%Y-%m-%d %H:%M UTC'), koma $(git rev-parse --short HEAD)"
    echo "##     (working tree), base = $BASE ($(echo quit | "$BASE" uci 2>/dev/null | head -1))"
  } >> "$out"
  B=tests/match/books/judkins.txt
  run python3 tests/match/match.py --variant judkins --opponent uci --engine "$BASE uci" --engine-name koma-base --games 100 --movetime 50 --book $B
  for skill in 6 10; do
    run python3 tests/match/match.py --variant judkins --opponent fairy-stockfish --fs-skill $skill --games 100 --movetime 50 --book $B
  done
  run python3 tests/match/match.py --variant judkins --opponent fairy-stockfish --games 100 --movetime 50 --book $B
  echo "## (6b) on a clock: 10 s + 100 ms a move, against Fairy-Stockfish at full strength" >> "$out"
  run python3 tests/match/match.py --variant judkins --opponent fairy-stockfish --games 20 --tc 10000+100 --book $B
  echo "## (6c) on a byoyomi clock: 1 s + 100 ms byoyomi, against the base engine" >> "$out"
  run python3 tests/match/match.py --variant judkins --opponent uci --engine "$BASE uci" --engine-name koma-base --games 20 --tc 1000+0 --byoyomi 100 --book $B
}
generic() {
  echo "## (9) the generic defaults on lance shogi (untuned), against the base engine; $(date -u '+%Y-%m-%d %H:%M UTC'), koma $(git rev-parse --short HEAD)" >> "$out"
  L=(--variant lanceshogi --variant-ini tests/walkthrough/lance-shogi.ini)
  run python3 tests/match/check_ini.py "${L[@]}" --koma-variant tests/walkthrough/lance-shogi.md --games 5 --plies 100
  run python3 tests/match/match.py "${L[@]}" --engine-variant tests/walkthrough/lance-shogi.md --opponent uci --engine "$BASE uci" --engine-name koma-base --games 40 --movetime 50 --book tests/match/books/lance-shogi.txt
}
ladder() {
  echo "## (10) ladders against Fairy-Stockfish on shogi and minishogi, 50 ms a move, 40 games a rung (sections 10 and 10b ran them as games 1-20 and 21-40); $(date -u '+%Y-%m-%d %H:%M UTC'), koma $(git rev-parse --short HEAD)" >> "$out"
  for v in shogi minishogi; do
    for skill in 0 3 6 10; do
      run python3 tests/match/match.py --variant $v --opponent fairy-stockfish --fs-skill $skill --games 40 --movetime 50 --book tests/match/books/$v.txt
    done
    run python3 tests/match/match.py --variant $v --opponent fairy-stockfish --games 40 --movetime 50 --book tests/match/books/$v.txt
  done
}
case "$only" in
  strength|generic|ladder)
    "$only"
    cat "$out"
    exit 0
    ;;
esac
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
strength
generic
ladder
cat "$out"
