//! Manifest model → Rust tokens, for the `tools!` macro, `toolsmith gen` and `build.rs`.

use std::path::Path;
use toolsmith_manifest::Diagnostics;

/// Generates the Rust code for the manifest at `path` (formatted), or the
/// diagnostics that stop it.
pub fn generate(path: &Path) -> Result<String, Diagnostics> {
    let _ = path;
    Ok(String::new())
}
