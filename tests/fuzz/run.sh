#!/usr/bin/env bash
# Fuzzes koma's text entry points with cargo-fuzz (libFuzzer).
#
#   bash tests/fuzz/run.sh TARGET SECONDS     fuzz one target (work corpus in tests/fuzz/work/)
#   bash tests/fuzz/run.sh --keep TARGET      minimize corpus + work corpus into tests/fuzz/corpus/TARGET
#
# Targets: variant dsl fen sfen moves record kif ki2 csa pgn jkf protocol play
# (bodies in targets.rs).
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly toolchain.
# Built without a sanitizer (koma has no unsafe code) and with debug
# assertions, so integer overflow is a crash too. A crash stops the run and
# leaves its input in tests/fuzz/artifacts/; once fixed, keep it in
# regressions/TARGET/, where `cargo test` replays it.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")"
declare -A DICT=([variant]=variant [dsl]=dsl [fen]=position [sfen]=position
                 [moves]=moves [record]=record [protocol]=protocol [play]=play
                 [kif]=kif [ki2]=kif [csa]=csa [pgn]=pgn [jkf]=jkf)
keep=0
if [[ "${1:-}" == "--keep" ]]; then keep=1; shift; fi
t=${1:-}
if [[ -z "$t" || -z "${DICT[$t]:-}" ]]; then
    echo "usage: run.sh TARGET SECONDS | run.sh --keep TARGET; targets: ${!DICT[*]}" >&2
    exit 2
fi
cargo +nightly fuzz build --fuzz-dir . -a -s none "$t"
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
bin="${CARGO_TARGET_DIR:-target}/$host/release/$t"
dict="dict/${DICT[$t]}.dict"
mkdir -p "corpus/$t" "work/$t" artifacts
if (( keep )); then
    rm -rf "corpus/$t.new" && mkdir -p "corpus/$t.new"
    "$bin" -set_cover_merge=1 -dict="$dict" "corpus/$t.new" "corpus/$t" "work/$t"
    rm -rf "corpus/$t" && mv "corpus/$t.new" "corpus/$t"
    exit 0
fi
secs=${2:?seconds}
cp -n corpus/"$t"/* "work/$t/" 2>/dev/null || true
if [[ -z "$(ls -A "work/$t")" ]]; then
    # The first time: inputs written from the repo's own files.
    (cd ../.. && cargo build --quiet)
    koma=$(cd ../.. && cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/koma
    python3 seed.py --koma "$koma" work.seed
    cp work.seed/"$t"/* "work/$t/" 2>/dev/null || true
fi
exec "$bin" "work/$t" -dict="$dict" -max_total_time="$secs" \
    -rss_limit_mb=2048 -timeout=20 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="artifacts/$t-"
