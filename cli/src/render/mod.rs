//! Renderers: the same sorted [`Diagnostics`] as human text, JSON, GitHub
//! workflow commands or SARIF. Each returns the whole output as a string.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use toolsmith_manifest::Diagnostics;

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

/// Renders `diagnostics` found in `files` files in `format`; `color` only
/// affects the human format.
pub fn render(format: Format, diagnostics: &Diagnostics, files: usize, color: bool) -> String {
    match format {
        Format::Human => human::render(diagnostics, files, color),
        Format::Json => json::render(diagnostics, files),
        Format::Github => github::render(diagnostics),
        Format::Sarif => sarif::render(diagnostics),
    }
}

/// True when text written to `stream` should carry colours (`--color`,
/// `NO_COLOR`, `CLICOLOR_FORCE` and whether it is a terminal).
pub fn color_enabled<S: anstream::stream::RawStream>(stream: &S) -> bool {
    anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never
}
