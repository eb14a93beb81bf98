//! Baselines: `toolsmith lint --write-baseline FILE` records a run's
//! findings; `--baseline FILE` leaves out the findings recorded there.
//!
//! A finding is recorded by its file (relative to the baseline's directory,
//! `/`-separated), its rule, and its JSON pointer — or, for findings without
//! one, the text of its line (trimmed). Line numbers are not part of the key,
//! so editing a file above a finding keeps it matched. Each recorded entry
//! matches one finding: a second, identical finding is new.

use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use toolsmith_manifest::{Diagnostic, Diagnostics};

/// The format version written and accepted.
const VERSION: u32 = 1;

/// The file: `{"version": 1, "findings": [...]}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    version: u32,
    findings: Vec<Entry>,
}

/// One recorded finding.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The file, relative to the baseline's directory.
    pub file: String,
    /// The rule id.
    pub rule: String,
    /// The JSON pointer of the finding, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// The text of the finding's line, for findings without a pointer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
}

/// A baseline read from disk.
#[derive(Debug)]
pub struct Baseline {
    dir: PathBuf,
    counts: HashMap<Entry, usize>,
    total: usize,
}

/// What filtering with a baseline did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Matched {
    /// Findings left out because the baseline has them.
    pub matched: usize,
    /// Entries of the baseline that matched no finding (fixed since).
    pub stale: usize,
}

/// The directory a baseline's paths are relative to.
fn dir_of(file: &Path) -> Result<PathBuf, Error> {
    let absolute = std::path::absolute(file).map_err(|source| Error::Read {
        path: file.to_path_buf(),
        source,
    })?;
    Ok(absolute.parent().map(Path::to_path_buf).unwrap_or_default())
}

/// The key of `d` for a baseline in `dir`.
pub fn entry(d: &Diagnostic, dir: &Path) -> Entry {
    let path = Path::new(&d.file);
    let file = std::path::absolute(path)
        .ok()
        .and_then(|a| a.strip_prefix(dir).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    let file = file
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    let (pointer, line) = if d.pointer.is_empty() {
        (
            None,
            Some(d.source.line_text(d.start.line).trim().to_string()),
        )
    } else {
        (Some(d.pointer.clone()), None)
    };
    Entry {
        file,
        rule: d.rule.to_string(),
        pointer,
        line,
    }
}

/// Writes the findings of `diagnostics` to `file` (write, then rename);
/// returns how many were written.
pub fn write(file: &Path, diagnostics: &Diagnostics) -> Result<usize, Error> {
    let dir = dir_of(file)?;
    let mut findings: Vec<Entry> = diagnostics.iter().map(|d| entry(d, &dir)).collect();
    findings.sort();
    let count = findings.len();
    let body = BaselineFile {
        version: VERSION,
        findings,
    };
    let mut text = serde_json::to_string_pretty(&body).map_err(|e| Error::Config {
        path: file.to_path_buf(),
        message: e.to_string(),
    })?;
    text.push('\n');
    crate::atomic::write(file, text.as_bytes())?;
    Ok(count)
}

impl Baseline {
    /// Reads a baseline written by [`write`].
    pub fn read(file: &Path, max_size: u64) -> Result<Baseline, Error> {
        let read = toolsmith_manifest::input::read_bounded(file, max_size).map_err(|source| {
            Error::Read {
                path: file.to_path_buf(),
                source,
            }
        })?;
        let bytes = read.map_err(|f| Error::Config {
            path: file.to_path_buf(),
            message: f.message,
        })?;
        let parsed: BaselineFile = serde_json::from_slice(&bytes).map_err(|e| Error::Config {
            path: file.to_path_buf(),
            message: format!(
                "not a baseline ({e}); write one with `toolsmith lint --write-baseline FILE`"
            ),
        })?;
        if parsed.version != VERSION {
            return Err(Error::Config {
                path: file.to_path_buf(),
                message: format!(
                    "baseline version {} is not {VERSION}; rewrite it with `--write-baseline`",
                    parsed.version
                ),
            });
        }
        let mut counts = HashMap::new();
        let total = parsed.findings.len();
        for e in parsed.findings {
            *counts.entry(e).or_default() += 1;
        }
        Ok(Baseline {
            dir: dir_of(file)?,
            counts,
            total,
        })
    }

    /// Leaves out of `diagnostics` the findings the baseline records.
    pub fn filter(mut self, diagnostics: &mut Diagnostics) -> Matched {
        let mut matched = 0;
        diagnostics.0.retain(|d| {
            let key = entry(d, &self.dir);
            match self.counts.get_mut(&key) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    matched += 1;
                    false
                }
                _ => true,
            }
        });
        Matched {
            matched,
            stale: self.total - matched,
        }
    }
}
