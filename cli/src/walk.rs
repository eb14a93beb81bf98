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
//! * `--exclude GLOB` leaves out the files it matches (the path below the
//!   walked directory, or the printed path), except skill files that start
//!   with frontmatter: a folder of fragments is skipped without hiding a real
//!   skill in it. The files left out are counted ([`Found::skipped`]).
//! * The result is sorted and free of duplicates.

use crate::error::Error;
use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolsmith_manifest::lint::{FileKind, Input, classify};

/// Parses one `--exclude` pattern (clap value parser).
pub fn parse_glob(pattern: &str) -> Result<Glob, globset::Error> {
    Glob::new(pattern)
}

/// The `--exclude` patterns.
#[derive(Debug, Clone)]
pub struct Exclude(GlobSet);

impl Default for Exclude {
    fn default() -> Self {
        Exclude(GlobSet::empty())
    }
}

impl Exclude {
    /// Compiles the patterns.
    pub fn new(globs: &[Glob]) -> Result<Self, globset::Error> {
        let mut set = GlobSetBuilder::new();
        for g in globs {
            set.add(g.clone());
        }
        Ok(Exclude(set.build()?))
    }

    /// True when the file at `path` (`relative` below the walked directory,
    /// printed as `display`) is left out: it matches a pattern and is not a
    /// skill file starting with frontmatter.
    fn skips(&self, path: &Path, relative: &Path, display: &str) -> bool {
        if self.0.is_empty() || !(self.0.is_match(relative) || self.0.is_match(display)) {
            return false;
        }
        !(classify(path) == Some(FileKind::Skill) && starts_with_frontmatter(path))
    }
}

/// True when the file's first line is `---` (after an optional BOM).
pub(crate) fn starts_with_frontmatter(path: &Path) -> bool {
    let mut head = [0u8; 8];
    let Ok(n) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        return false;
    };
    let head = &head[..n];
    let head = head
        .strip_prefix(b"\xef\xbb\xbf".as_slice())
        .unwrap_or(head);
    head.strip_prefix(b"---".as_slice()).is_some_and(|rest| {
        rest.first()
            .is_none_or(|b| matches!(b, b'\n' | b'\r' | b' ' | b'\t'))
    })
}

/// The files found, and the paths that could not be read.
#[derive(Debug, Default)]
pub struct Found {
    /// Files to lint, sorted by display path.
    pub inputs: Vec<Input>,
    /// Tool errors met on the way (missing paths, unreadable directories).
    pub errors: Vec<Error>,
    /// Files left out by `--exclude`.
    pub skipped: usize,
}

/// Collects the files under `paths`, leaving out what `exclude` matches; an
/// empty list means the current directory.
pub fn collect(paths: &[PathBuf], exclude: &Exclude) -> Found {
    let mut found = Found::default();
    if paths.is_empty() {
        walk_dir(Path::new("."), true, exclude, &mut found);
    }
    for path in paths {
        match std::fs::metadata(path) {
            Err(source) => found.errors.push(Error::Read {
                path: path.clone(),
                source,
            }),
            Ok(meta) if meta.is_dir() => walk_dir(path, false, exclude, &mut found),
            Ok(_) if exclude.skips(path, path, &path.display().to_string()) => found.skipped += 1,
            Ok(_) => found.inputs.push(Input::new(path.clone())),
        }
    }
    found.inputs.sort();
    found.inputs.dedup();
    found
}

/// Walks one directory (in parallel) into `found`.
fn walk_dir(root: &Path, strip_dot: bool, exclude: &Exclude, found: &mut Found) {
    let inputs = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let skipped = AtomicUsize::new(0);
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
                            let relative = path.strip_prefix(root).unwrap_or(&path);
                            if exclude.skips(&path, relative, &display) {
                                skipped.fetch_add(1, Ordering::Relaxed);
                            } else {
                                lock(&inputs).push(Input { display, path });
                            }
                        }
                    }
                    Err(e) => lock(&errors).push(Error::Walk(e)),
                }
                WalkState::Continue
            })
        });
    found.inputs.extend(into_inner(inputs));
    found.skipped += skipped.into_inner();
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
