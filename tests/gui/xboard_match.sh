#!/bin/sh
# koma against HaChu in XBoard itself (Debian xboard 4.9, headless under Xvfb): koma speaks
# XBoard's protocol (`koma xboard`), XBoard runs the match, draws the board and checks every
# move by its own rules of the variant, and adjudicates the end.
#
#   tests/gui/xboard_match.sh [VARIANT [GAMES]]      (defaults: chu 2)
#
# Needs xboard, xvfb and hachu (Debian; installed here when missing). Environment: KOMA (default
# target/release/koma), HACHU (default /usr/games/hachu), SECOND (the second engine's command,
# default HaChu; "$KOMA xboard" for koma against itself at a variant XBoard does not know,
# which koma then describes to XBoard with `setup` and `piece`), ST (time a move as XBoard writes it, MIN:SEC, default 0:01),
# OUT (prefix of the PGN and XBoard's debug log, default /tmp/xboard-VARIANT), XBOARD_ARGS (more
# options for XBoard, e.g. "-adjudicateDrawMoves 200" to end long games). Prints the PGN's
# results, XBoard's final score, and the lines of the debug log where XBoard says a move of
# either engine was illegal or koma answered with an error (none is expected; the exit status
# is 1 if there is one). Results of the recorded runs are in tests/gui/results.txt.
set -eu
variant=${1:-chu}
games=${2:-2}
koma=$(readlink -f "${KOMA:-$(dirname "$0")/../../target/release/koma}")
hachu=${HACHU:-/usr/games/hachu}
st=${ST:-0:01}
out=${OUT:-/tmp/xboard-$variant}

missing=""
[ -x /usr/games/xboard ] || missing="$missing xboard"
command -v xvfb-run >/dev/null 2>&1 || missing="$missing xvfb xauth"
[ -x "$hachu" ] || missing="$missing hachu"
if [ -n "$missing" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
rm -f "$out.pgn" "$out.debug"
dir=$(mktemp -d)
# -st: seconds a move for both; -xexit: leave when the match is over; the engines run in a
# scratch directory (HaChu writes nothing there, koma neither).
(cd "$dir" && xvfb-run -a /usr/games/xboard -variant "$variant" \
  -fcp "$koma xboard" -fd "$dir" -scp "${SECOND:-$hachu}" -sd "$dir" \
  -matchGames "$games" -searchTime "$st" -saveGameFile "$out.pgn" \
  -debugMode true -nameOfDebugFile "$out.debug" ${XBOARD_ARGS:-} -xexit 2>&1) | grep -v '^ALSA\|^aplay' || true
grep '^\[Result\|^\[White\|^\[Black' "$out.pgn" | paste - - -
bad=$(grep -an 'Illegal move\|<first : Error\|<second: Error\|tellusererror' "$out.debug" || true)
# XBoard's own verdicts in the PGN: a move it refused ("Forfeit due to illegal move") or a claim
# it did not accept ("False ... claim").
bad="$bad$(grep -ain 'illegal\|forfeit\|false .*claim' "$out.pgn" || true)"
if [ -n "$bad" ]; then
  echo "$bad"
  exit 1
fi
echo "no illegal move and no error in $out.debug"
