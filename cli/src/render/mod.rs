//! Renderers: the same sorted [`Diagnostics`] as human text, JSON, GitHub
//! workflow commands or SARIF. Each returns the whole output as a string.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use std::collections::BTreeMap;
use toolsmith_manifest::Diagnostics;

/// What a run's summary says besides the counts of findings.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Run {
    /// Files read.
    pub files: usize,
    /// Files left out by `--exclude`.
    pub skipped: usize,
    /// Skill files per profile they were checked under (`claude-code` → 3).
    pub profiles: BTreeMap<String, usize>,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// rustc-style excerpts with a caret under the offending text.
    Human,
    /// One JSON object with `diagnostics` and `summary`.
    Json,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
    /// SARIF 2.1.0 for GitHub code scanning.
    Sarif,
}

/// Renders `diagnostics` of `run` in `format`; `color` only affects the
/// human format.
pub fn render(format: Format, diagnostics: &Diagnostics, run: &Run, color: bool) -> String {
    match format {
        Format::Human => human::render(diagnostics, run, color),
        Format::Json => json::render(diagnostics, run),
        Format::Github => github::render(diagnostics),
        Format::Sarif => sarif::render(diagnostics),
    }
}

/// True when text written to `stream` should carry colours (`--color`,
/// `NO_COLOR`, `CLICOLOR_FORCE` and whether it is a terminal).
pub fn color_enabled<S: anstream::stream::RawStream>(stream: &S) -> bool {
    anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never
}
