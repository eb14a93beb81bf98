//! Turning command-line paths into the list of files to lint.
//!
//! * A file named on the command line is linted whatever its name.
//! * A directory is walked with `ignore`: `.gitignore` (and `.ignore`) files are
//!   honoured even outside a git repository, hidden directories such as
//!   `.claude/skills` are entered, `.git` is skipped; only files whose name
//!   [`classify`] recognises are kept.
//! * Display paths are the command-line path joined with the path below it, as
//!   ripgrep prints them: `toolsmith lint fixtures` → `fixtures/chai/…`,
//!   `toolsmith lint .` → `./chai/…`. With no path at all the walk starts at
//!   `.` and the `./` prefix is dropped (`chai/…`), again like ripgrep.
//! * The result is sorted and free of duplicates.

use crate::error::Error;
use ignore::{WalkBuilder, WalkState};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use toolsmith_manifest::lint::{Input, classify};

/// The files found, and the paths that could not be read.
#[derive(Debug, Default)]
pub struct Found {
    /// Files to lint, sorted by display path.
    pub inputs: Vec<Input>,
    /// Tool errors met on the way (missing paths, unreadable directories).
    pub errors: Vec<Error>,
}

/// Collects the files under `paths`; an empty list means the current directory.
pub fn collect(paths: &[PathBuf]) -> Found {
    let mut found = Found::default();
    if paths.is_empty() {
        walk_dir(Path::new("."), true, &mut found);
    }
    for path in paths {
        match std::fs::metadata(path) {
            Err(source) => found.errors.push(Error::Read {
                path: path.clone(),
                source,
            }),
            Ok(meta) if meta.is_dir() => walk_dir(path, false, &mut found),
            Ok(_) => found.inputs.push(Input::new(path.clone())),
        }
    }
    found.inputs.sort();
    found.inputs.dedup();
    found
}

/// Walks one directory (in parallel) into `found`.
fn walk_dir(root: &Path, strip_dot: bool, found: &mut Found) {
    let inputs = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .filter_entry(|entry| entry.file_name() != ".git")
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                match entry {
                    Ok(entry) => {
                        let is_file = entry.file_type().is_some_and(|t| t.is_file());
                        if is_file && classify(entry.path()).is_some() {
                            let path = entry.into_path();
                            let display = if strip_dot {
                                path.strip_prefix(".")
                                    .unwrap_or(&path)
                                    .display()
                                    .to_string()
                            } else {
                                path.display().to_string()
                            };
                            lock(&inputs).push(Input { display, path });
                        }
                    }
                    Err(e) => lock(&errors).push(Error::Walk(e)),
                }
                WalkState::Continue
            })
        });
    found.inputs.extend(into_inner(inputs));
    let mut errors = into_inner(errors);
    errors.sort_by_key(ToString::to_string);
    found.errors.extend(errors);
}

/// Locks a mutex; a poisoned lock (a panicking walker thread) still holds valid data.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
