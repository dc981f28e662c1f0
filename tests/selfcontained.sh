#!/usr/bin/env bash
# Fails if any file of the repository names a path outside the repository, so
# that a clone works in any folder with nothing beside it.
#
# Usage: bash tests/selfcontained.sh [EXCLUDE ...]
#   EXCLUDE: files or folders (repository-relative) to leave out; for trying
#   this script only: .ci/run calls it with none.
#
# Searches every file git tracks (its working-tree text; binary files skipped)
# for
#   1. a folder beside the repository: shared, one folder up (where the
#      oracle wrapper and perft data used to lie);
#   2. a relative path that climbs out of the repository from the file's own
#      folder: more leading parent steps (dot-dot slash) than the file is
#      deep (a file at the root may not climb at all, one in tests/fuzz two
#      folders at most);
#   3. an absolute path of one machine: a path starting with the folders work,
#      home, root, Users or mnt (system paths such as those under usr, tmp,
#      dev or proc are allowed: they are the same on every machine).
# Each hit is printed as `file:line: text` and a line saying what is wrong;
# the exit status is 1 if there is any, else 0.
#
# The patterns are built from pieces (the ".." and the folder names apart), so
# that this file does not match itself.
set -euo pipefail
cd "$(dirname "$0")/.."

dots='\.\.'
beside="${dots}/shared"
# an absolute path: the slash must not follow a name (tests/fuzz/work/ is fine)
machine="(^|[^A-Za-z0-9_.~-])/(wo""rk|ho""me|ro""ot|Use""rs|m""nt)/"

excludes=()
for path in "$@"; do
    excludes+=(":(exclude)$path")
done

if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "selfcontained: $(pwd) is not a git checkout: the files to search are git's" >&2
    exit 2
fi
found=$(mktemp)
trap 'rm -f "$found"' EXIT
# search PATTERN...: git grep's hits (file NUL line NUL text) into $found;
# git grep exits 1 when nothing matches, above 1 when it could not search
search() {
    local args=() status=0
    for pattern in "$@"; do
        args+=(-e "$pattern")
    done
    git grep -I -n -z -E "${args[@]}" -- . "${excludes[@]}" >"$found" || status=$?
    if ((status > 1)); then
        echo "selfcontained: git grep failed (exit status $status)" >&2
        exit 2
    fi
}

hits=0
report() { # file line text why
    printf '%s:%s: %s\n    -> %s\n' "$1" "$2" "$3" "$4"
    hits=$((hits + 1))
}

# 1 and 3: plain patterns
search "$beside" "$machine"
while IFS= read -r -d '' file && IFS= read -r -d '' line && IFS= read -r text; do
    if [[ $text =~ $beside ]]; then
        report "$file" "$line" "$text" "names the folder shared beside the repository: put what it needs inside the repository"
    else
        report "$file" "$line" "$text" "an absolute path of one machine: use a path relative to the repository"
    fi
done <"$found"

# 2: runs of leading parent steps deeper than the file's folder
# a run: one or more dot-dot-slash steps, maybe a last dot-dot (cd up/up/up)
run="(^|[^.A-Za-z0-9_])((${dots}/)+(${dots}([^.A-Za-z0-9_]|\$))?)"
search "(^|[^.A-Za-z0-9_])${dots}/"
while IFS= read -r -d '' file && IFS= read -r -d '' line && IFS= read -r text; do
    [[ $text =~ $beside ]] && continue # already reported above
    slashes=${file//[^\/]/}
    depth=${#slashes}
    rest=$text
    while [[ $rest =~ $run ]]; do
        dotdots=${BASH_REMATCH[2]//[^.]/}
        ups=$((${#dotdots} / 2))
        if ((ups > depth)); then
            report "$file" "$line" "$text" "climbs $ups folders up from a file $depth deep: the path leaves the repository"
            break
        fi
        rest=${rest#*"${BASH_REMATCH[0]}"}
    done
done <"$found"

if ((hits > 0)); then
    echo "selfcontained: $hits reference(s) to paths outside the repository (see above)" >&2
    exit 1
fi
echo "selfcontained: no path outside the repository"
