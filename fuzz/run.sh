#!/usr/bin/env bash
# Runs one fuzz target for a given time, on one core.
#
#   fuzz/run.sh TARGET SECONDS
#
# Seeds: the repository's fixtures and, when present, the shared corpus of
# real manifests (TOOLSMITH_CORPUS, default ../shared/corpus next to the
# repository, else /work/shared/corpus), framed for the target by
# fuzz/seeds.py and copied into fuzz/corpus/TARGET (git-ignored; never
# commit it). Crashes, hangs and out-of-memory inputs land in
# fuzz/artifacts/TARGET/; the log in fuzz/logs/TARGET.log.
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz --locked`).
# FUZZ_RSS_MB (default 2048), FUZZ_MAX_LEN (default 131072) and
# FUZZ_TIMEOUT (seconds per input, default 10) tune libFuzzer.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 TARGET SECONDS" >&2
    exit 2
fi
target=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")

corpus_src=${TOOLSMITH_CORPUS:-}
if [ -z "$corpus_src" ]; then
    for c in "$repo/../shared/corpus" /work/shared/corpus; do
        if [ -d "$c" ]; then corpus_src=$c; break; fi
    done
fi
if [ -z "$corpus_src" ]; then
    echo "run.sh: no shared corpus found; seeding from the fixtures only" >&2
fi

work="$here/corpus/$target"
artifacts="$here/artifacts/$target"
mkdir -p "$work" "$artifacts" "$here/logs"
python3 "$here/seeds.py" "$target" "$work" "$repo" ${corpus_src:+"$corpus_src"}

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "run.sh: cargo-fuzz missing; install it with: cargo install cargo-fuzz --locked" >&2
    exit 2
fi

cd "$here"
# One job, one worker: a single fuzzing process (the machine is shared).
# Builds use one core too.
CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo +nightly fuzz run "$target" "$work" -- \
    -max_total_time="$seconds" \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -max_len="${FUZZ_MAX_LEN:-131072}" \
    -timeout="${FUZZ_TIMEOUT:-10}" \
    -artifact_prefix="$artifacts/" \
    -print_final_stats=1 \
    2>&1 | tee "$here/logs/$target.log"
status=${PIPESTATUS[0]}
echo "run.sh: $target ran ${seconds}s; summary:"
grep -E '^#[0-9]+ +DONE' "$here/logs/$target.log" | tail -1 || true
grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$here/logs/$target.log" || true
exit "$status"
