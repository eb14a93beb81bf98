//! Where the shared corpus of real manifests lives, for tests and benchmarks.
//!
//! The corpus (`../shared/corpus` next to the repository) is not part of the
//! repository; tests that read it skip with a notice when it is absent.

use std::path::{Path, PathBuf};

/// The corpus directory: `$TOOLSMITH_CORPUS` if set, else `shared/corpus`
/// beside the repository root; `None` when neither holds an `index.json`.
#[doc(hidden)]
pub fn locate() -> Option<PathBuf> {
    let repo_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::var_os("TOOLSMITH_CORPUS")
        .map(PathBuf::from)
        .into_iter()
        .chain([repo_root.join("../shared/corpus")])
        .find(|dir| dir.join("index.json").is_file())
}
