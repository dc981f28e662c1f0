#!/bin/sh
# Builds cutechess-cli from source, then plays a UCI match between koma (started with no
# subcommand, as a GUI starts an engine) and Fairy-Stockfish, from `position startpos`.
#
#   tests/gui/cutechess.sh SRC [VARIANT [GAMES]]     (defaults: judkins 12)
#
# SRC is a cutechess source tree: https://github.com/cutechess/cutechess at tag v1.4.0 (commit
# 480e2750d4665605a0672ecc69fea3f5526ab002), the newest release that builds with Qt 5 (1.5 needs
# Qt 6.8). Get it with
#   git clone --depth 1 --branch v1.4.0 https://github.com/cutechess/cutechess SRC
# (here it came from a git mirror: git -C MIRROR archive v1.4.0 | tar -x -C SRC).
# Needs cmake, g++ and Qt 5.15; on Debian: qtbase5-dev libqt5svg5-dev (cutechess's CMakeLists asks
# for QtSvg even when only the cli is built). The build (cli target only) takes about 3 minutes
# on 2 cores and is skipped when BUILD already holds cutechess-cli.
#
# Environment: BUILD (build directory, default SRC/build), KOMA (default target/release/koma),
# OPPONENT (default /usr/games/fairy-stockfish), TC (cutechess time control, default tc=10+0.1),
# OUT (prefix of the PGN and the -debug log, default /tmp/cutechess-VARIANT).
# Variant names are cutechess's (judkins, shogi, minishogi); both engines know them as UCI_Variant.
# The PGNs of the recorded run are tests/gui/cutechess-VARIANT.pgn (results in tests/gui/results.txt).
set -eu
src=${1:?usage: $0 CUTECHESS_SOURCE_DIR [VARIANT [GAMES]]}
variant=${2:-judkins}
games=${3:-12}
build=${BUILD:-$src/build}
koma=${KOMA:-$(dirname "$0")/../../target/release/koma}
opponent=${OPPONENT:-/usr/games/fairy-stockfish}
out=${OUT:-/tmp/cutechess-$variant}

if [ ! -x "$build/cutechess-cli" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF
	nice cmake --build "$build" --target cli -j2
fi
"$build/cutechess-cli" --version | head -1

# No -recover: a crashed engine ends the match. -debug logs every line both ways.
rm -f "$out.pgn"
"$build/cutechess-cli" -variant "$variant" \
	-engine name=koma cmd="$(realpath "$koma")" proto=uci \
	-engine name=Fairy-Stockfish cmd="$opponent" proto=uci \
	-each "${TC:-tc=10+0.1}" -games 2 -rounds $((games / 2)) -maxmoves 200 \
	-pgnout "$out.pgn" -debug >"$out.log" 2>&1
grep -v -E '^[0-9]+ [<>]' "$out.log"
echo "illegal moves: $(grep -c 'illegal move' "$out.pgn")," \
	"disconnects: $(grep -c -E 'disconnects|connection stalls' "$out.pgn")," \
	"time losses: $(grep -c 'loses on time' "$out.pgn")  (in $out.pgn; log $out.log)"
