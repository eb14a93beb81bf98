#!/usr/bin/env bash
# What the user waits for: the incremental `cargo build` of a user crate after
# one description of a 100-tool manifest is edited, toolsmith's `tools!`
# against typify's `import_types!` on the same parameter schemas.
#
#     bash codegen/benches/rebuild.sh            # incremental builds, 5 repetitions
#     REPS=9 COLD=1 bash codegen/benches/rebuild.sh   # also cold builds, 9 repetitions
#     CRATES="macros default typify" bash codegen/benches/rebuild.sh
#
# It writes, outside the repository's sources (under target/rebuild-bench/):
#   data/tools.json     100 chai tools × 9 parameters (the shapes of the corpus:
#                       strings, bounded integers, booleans, a string enum, an
#                       array, a nested object), one allowlisted binary;
#   data/schemas.json   the same 100 parameter schemas as `definitions`;
# and three binary crates, each with its own target directory:
#   macros    `toolsmith = { default-features = false, features = ["macros"] }`,
#             `tools!` on tools.json, `main` parses a call and plans it;
#   default   the same with `toolsmith`'s default features (`load`, `validate`);
#   typify    `typify::import_types!` on schemas.json, serde, serde_json,
#             `main` deserializes the same arguments into the generated type.
# Each repetition rewrites the description of tool 50's `query` parameter (in
# both files) and times `cargo build` of every crate (interleaved, so noise
# falls on all alike), then prints the median and the range. Offline: the
# crates use the workspace's Cargo.lock (typify's from codegen/bench).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-$ROOT/target/rebuild-bench}
REPS=${REPS:-5}
COLD=${COLD:-0}
CRATES=${CRATES:-"macros typify"}
TOOLS=100
CARGO=${CARGO:-cargo}

mkdir -p "$WORK/data"

# --- the inputs ------------------------------------------------------------

parameters() { # $1: tool number, $2: the edit marker
    cat <<EOF
{"type": "object",
 "properties": {
  "query": {"type": "string", "description": "What tool $1 looks for.$2"},
  "path": {"type": "string", "description": "A path relative to the sandbox root."},
  "limit": {"type": "integer", "minimum": 0, "description": "Maximum number of results."},
  "offset": {"type": "integer"},
  "recursive": {"type": "boolean", "description": "Descend into directories."},
  "dryRun": {"type": "boolean"},
  "mode": {"type": "string", "enum": ["fast", "deep-scan", "exact"]},
  "tags": {"type": "array", "items": {"type": "string"}},
  "filter": {"type": "object",
             "properties": {"field": {"type": "string"}, "value": {"type": "string"}},
             "required": ["field"]}
 },
 "required": ["query", "path"],
 "additionalProperties": false}
EOF
}

write_inputs() { # $1: the edit marker of tool 50
    local tools="" execution="" defs="" sep="" i marker
    for ((i = 0; i < TOOLS; i++)); do
        marker=""
        [[ $i == 50 ]] && marker=$1
        tools+="$sep{\"name\": \"notes_tool_$i\", \"description\": \"Tool number $i.\", \"parameters\": $(parameters $i "$marker")}"
        execution+="$sep{\"tool\": \"notes_tool_$i\", \"binary\": \"notes-cli\", \"subcommand\": \"run\", \"args\": [
  {\"param\": \"query\"}, {\"param\": \"path\", \"kind\": \"positional\"},
  {\"param\": \"limit\", \"kind\": \"flag\"}, {\"param\": \"offset\", \"kind\": \"flag\"},
  {\"param\": \"recursive\", \"kind\": \"flagifboolean\", \"flagIfTrue\": \"--recursive\"},
  {\"param\": \"dryRun\", \"kind\": \"flagifboolean\", \"flagIfTrue\": \"--dry-run\"},
  {\"param\": \"mode\", \"kind\": \"flag\"}, {\"param\": \"tags\", \"kind\": \"flag\"},
  {\"param\": \"filter\", \"kind\": \"flag\"}]}"
        defs+="$sep\"NotesTool${i}Args\": $(parameters $i "$marker")"
        sep=$',\n'
    done
    printf '{"tools": [\n%s],\n"allowlist": {"notes-cli": ["run"]},\n"execution": [\n%s]}\n' \
        "$tools" "$execution" >"$WORK/data/tools.json"
    printf '{"$schema": "http://json-schema.org/draft-07/schema#",\n"definitions": {\n%s}}\n' \
        "$defs" >"$WORK/data/schemas.json"
}

# --- the crates --------------------------------------------------------------

toolsmith_crate() { # $1: crate name, $2: the toolsmith dependency's options
    local dir=$WORK/$1
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "rebuild-$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
toolsmith = { path = "$ROOT/runtime"$2 }

[workspace]
EOF
    cat >"$dir/src/main.rs" <<EOF
mod notes {
    toolsmith::tools!("$WORK/data/tools.json");
}

fn main() {
    let call = notes::ToolCall::parse("notes_tool_50", r#"{"query": "tea", "path": "a"}"#)
        .expect("valid arguments");
    let runtime = toolsmith::Runtime::new(notes::policy());
    println!("{} tools; {:?}", notes::definitions().as_array().map_or(0, Vec::len), call.plan(&runtime).map(|p| p.argv));
}
EOF
    cp "$ROOT/Cargo.lock" "$dir/Cargo.lock" 2>/dev/null || true
}

typify_crate() {
    local dir=$WORK/typify
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "rebuild-typify"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
typify = "0.8"
serde = { version = "1", features = ["derive"] }
serde_json = "1"

[workspace]
EOF
    cat >"$dir/src/main.rs" <<EOF
mod notes {
    typify::import_types!(schema = "$WORK/data/schemas.json");
}

fn main() {
    let args: notes::NotesTool50Args = serde_json::from_str(r#"{"query": "tea", "path": "a"}"#)
        .expect("valid arguments");
    println!("{args:?}");
}
EOF
    cp "$ROOT/codegen/bench/Cargo.lock" "$dir/Cargo.lock" 2>/dev/null || true
}

build() { # $1: crate; prints the seconds `cargo build` took
    local dir=$WORK/$1 start end
    start=$(date +%s.%N)
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target" RUSTFLAGS= "$CARGO" build --offline -q) >&2 ||
        { echo "build of $1 failed" >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

stats() { # seconds on stdin → "median (min–max)"
    sort -g | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%.2f s (%.2f–%.2f, n=%d)", m, v[1], v[NR], NR }'
}

write_inputs ""
for crate in $CRATES; do
    case $crate in
    macros) toolsmith_crate macros ', default-features = false, features = ["macros"]' ;;
    default) toolsmith_crate default '' ;;
    typify) typify_crate ;;
    *) echo "unknown crate $crate (macros, default, typify)" >&2; exit 2 ;;
    esac
done

declare -A cold incremental
for crate in $CRATES; do
    if [[ $COLD == 1 ]]; then
        rm -rf "$WORK/$crate/target"
        cold[$crate]=$(build "$crate")
        echo "cold $crate: ${cold[$crate]} s" >&2
    else
        build "$crate" >/dev/null # warm up: the first build is not measured
    fi
done

for ((rep = 1; rep <= REPS; rep++)); do
    write_inputs " (edit $rep, $RANDOM)"
    for crate in $CRATES; do
        t=$(build "$crate")
        echo "edit $rep $crate: $t s" >&2
        incremental[$crate]+="$t"$'\n'
    done
done

echo
echo "100 tools × 9 parameters; $REPS edits of one description; $(nproc) cores"
for crate in $CRATES; do
    line="$crate: incremental $(printf '%s' "${incremental[$crate]}" | stats)"
    [[ $COLD == 1 ]] && line+=", cold $(printf '%.1f' "${cold[$crate]}") s"
    echo "$line"
done
