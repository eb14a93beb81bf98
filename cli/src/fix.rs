//! `toolsmith lint --fix`: applies the mechanical fixes of a run's findings
//! ([`toolsmith_manifest::fix`]) file by file, each file rewritten
//! atomically; `--fix --dry-run` prints a unified diff instead.

use crate::error::Error;
use std::collections::BTreeMap;
use std::path::Path;
use toolsmith_manifest::Diagnostics;
use toolsmith_manifest::fix::{self, Fix};

/// What `--fix` did.
#[derive(Debug, Default)]
pub struct Fixed {
    /// Findings fixed (or, with `--dry-run`, that would be).
    pub fixes: usize,
    /// Files changed.
    pub files: usize,
    /// The unified diff (`--dry-run`).
    pub diff: String,
    /// Files left alone because they changed on disk since they were read.
    pub changed: Vec<String>,
}

/// Adds to each fixable finding's help that `--fix` fixes it.
pub fn annotate(diagnostics: &mut Diagnostics) {
    let mut fixer = fix::Fixer::default();
    for d in &mut diagnostics.0 {
        let Some(what) = fix::describe(d.rule) else {
            continue;
        };
        if fixer.fix(d).is_none() {
            continue;
        }
        let note = format!("`toolsmith lint --fix` {what}");
        d.help = Some(match d.help.take() {
            Some(h) => format!("{h}; {note}"),
            None => note,
        });
    }
}

/// Fixes the fixable findings of `diagnostics` (notes too: they were
/// reported, so their rule is on).
pub fn run(diagnostics: &Diagnostics, dry_run: bool, max_size: u64) -> Result<Fixed, Error> {
    let mut by_file: BTreeMap<&str, (Vec<Fix>, &str)> = BTreeMap::new();
    let mut fixer = fix::Fixer::default();
    for d in diagnostics.iter() {
        if let Some(f) = fixer.fix(d) {
            by_file
                .entry(d.file.as_str())
                .or_insert_with(|| (Vec::new(), d.source.text()))
                .0
                .push(f);
        }
    }
    let mut fixed = Fixed::default();
    for (file, (fixes, text)) in by_file {
        let path = Path::new(file);
        // The text the findings point into must still be the file's.
        let on_disk = toolsmith_manifest::input::read_bounded(path, max_size)
            .ok()
            .and_then(Result::ok);
        if on_disk.as_deref() != Some(text.as_bytes()) {
            fixed.changed.push(file.to_string());
            continue;
        }
        let (new, n) = fix::apply(text, &fixes);
        if n == 0 || new == text {
            continue;
        }
        fixed.fixes += n;
        fixed.files += 1;
        if dry_run {
            let diff = similar::TextDiff::from_lines(text, &new);
            fixed.diff.push_str(
                &diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("a/{file}"), &format!("b/{file}"))
                    .to_string(),
            );
        } else {
            crate::atomic::write(path, new.as_bytes())?;
        }
    }
    Ok(fixed)
}
