//! Expansion time of `toolsmith::tools!` vs typify's `import_types!` on a
//! 100-tool manifest, in one process: each side does what its macro does at
//! expansion time. toolsmith: read the manifest, lint it, build the model and
//! the tokens (`toolsmith_codegen::expand`). typify: read the schema file,
//! parse it, add the 100 parameter schemas (as `$defs`) to a `TypeSpace` and
//! produce the tokens (`typify-macro`'s `do_import_types`).
//! Prints the median and minimum of 21 runs after 3 warm-ups.

use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

const TOOLS: usize = 100;

/// One tool's parameters: the shapes seen in the corpus (strings, bounded
/// integers, booleans, a string enum, an array, a nested object).
fn parameters(i: usize) -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": format!("What tool {i} looks for.")},
            "path": {"type": "string", "description": "A path relative to the sandbox root."},
            "limit": {"type": "integer", "minimum": 0, "description": "Maximum number of results."},
            "offset": {"type": "integer"},
            "recursive": {"type": "boolean", "description": "Descend into directories."},
            "dryRun": {"type": "boolean"},
            "mode": {"type": "string", "enum": ["fast", "deep-scan", "exact"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filter": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "value": {"type": "string"}},
                "required": ["field"]
            }
        },
        "required": ["query", "path"],
        "additionalProperties": false
    })
}

fn write_inputs(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let mut tools = Vec::new();
    let mut execution = Vec::new();
    let mut defs = serde_json::Map::new();
    for i in 0..TOOLS {
        let name = format!("notes_tool_{i}");
        tools.push(json!({"name": name, "description": format!("Tool number {i}."), "parameters": parameters(i)}));
        execution.push(json!({
            "tool": name, "binary": "notes-cli", "subcommand": "run",
            "args": [
                {"param": "query"},
                {"param": "path", "kind": "positional"},
                {"param": "limit", "kind": "flag"},
                {"param": "offset", "kind": "flag"},
                {"param": "recursive", "kind": "flagifboolean", "flagIfTrue": "--recursive"},
                {"param": "dryRun", "kind": "flagifboolean", "flagIfTrue": "--dry-run"},
                {"param": "mode", "kind": "flag"},
                {"param": "tags", "kind": "flag"},
                {"param": "filter", "kind": "flag"}
            ]
        }));
        defs.insert(format!("NotesTool{i}Args"), parameters(i));
    }
    let manifest = json!({"tools": tools, "allowlist": {"notes-cli": ["run"]}, "execution": execution});
    let tools_path = dir.join("tools.json");
    std::fs::write(&tools_path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": defs});
    let schema_path = dir.join("schemas.json");
    std::fs::write(&schema_path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
    (tools_path, schema_path)
}

fn toolsmith(path: &Path) -> usize {
    let expansion = toolsmith_codegen::expand(path, "tools.json");
    let tokens = expansion.result.expect("the benchmark manifest is valid");
    tokens.to_string().len()
}

fn typify(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let schema: schemars::schema::RootSchema = serde_json::from_str(&text).unwrap();
    let mut settings = typify::TypeSpaceSettings::default();
    settings.with_struct_builder(false);
    let mut space = typify::TypeSpace::new(&settings);
    space.add_root_schema(schema).unwrap();
    space.to_stream().to_string().len()
}

fn measure(name: &str, f: impl Fn() -> usize) -> Duration {
    for _ in 0..3 {
        f();
    }
    let mut times: Vec<Duration> = (0..21)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    let size = f();
    println!(
        "{name:<10} median {:>8.2} ms   min {:>8.2} ms   output {size} bytes of tokens",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3
    );
    times[times.len() / 2]
}

fn main() {
    let dir = std::env::temp_dir().join(format!("toolsmith-bench-{}", std::process::id()));
    let (tools_path, schema_path) = write_inputs(&dir);
    println!("{TOOLS} tools, 9 parameters each (profile: {})", if cfg!(debug_assertions) { "dev" } else { "optimised" });
    let ours = measure("toolsmith", || toolsmith(&tools_path));
    let theirs = measure("typify", || typify(&schema_path));
    println!("toolsmith / typify = {:.2}", ours.as_secs_f64() / theirs.as_secs_f64());
    // Where toolsmith's time goes: loading (lint + model) vs generating tokens.
    let options = toolsmith_manifest::lint::Options::default();
    measure("  load", || {
        toolsmith_manifest::lint::load(&tools_path, "tools.json", &options)
            .map(|l| l.manifest.tools.len())
            .unwrap_or(0)
    });
    let manifest = toolsmith_manifest::lint::load(&tools_path, "tools.json", &options)
        .expect("valid")
        .manifest;
    measure("  tokens", || toolsmith_codegen::tools::tools(&manifest, &[]).tokens.to_string().len());
    let _ = std::fs::remove_dir_all(&dir);
}
