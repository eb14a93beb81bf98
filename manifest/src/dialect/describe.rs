//! `--describe` output of self-describing executables.

use crate::document::Document;
use crate::lint::Options;
use crate::model::Manifest;
use crate::rules::Rule;

/// describe rules.
pub static RULES: &[&Rule] = &[];

/// Checks the describe files of one directory together (duplicate names across files).
pub fn check(docs: &mut [Document], options: &Options) -> Option<Manifest> {
    let _ = (docs, options);
    None
}
