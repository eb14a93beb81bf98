//! `--format github`: GitHub Actions workflow commands, one line per diagnostic:
//! `::error file=F,line=L,endLine=L2,col=C,endColumn=C2,title=RULE::MESSAGE`.
//!
//! `endColumn` is inclusive here (GitHub's convention), so a one-character
//! range has `col == endColumn`; it is only given when the range is on one line.
//!
//! GitHub shows at most [`ANNOTATION_LIMIT`] error and as many warning
//! annotations per step: every command is still printed, followed by one
//! `::notice` saying how many GitHub drops. [`step_summary`] is the Markdown
//! table of every finding that the command writes to `$GITHUB_STEP_SUMMARY`.

use std::fmt::Write;
use toolsmith_manifest::{Diagnostic, Diagnostics, Severity};

/// Error annotations GitHub shows per step; the same number of warnings
/// (`actions/toolkit#734`). A job shows at most 50 in all.
pub const ANNOTATION_LIMIT: usize = 10;

/// Renders the diagnostics as workflow commands, then a `::notice` when there
/// are more errors or warnings than GitHub shows.
pub fn render(diagnostics: &Diagnostics) -> String {
    let mut out = String::new();
    for d in diagnostics.iter() {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let message = message_with_help(d);
        let _ = write!(
            out,
            "::{command} file={},line={},endLine={},col={}",
            escape_property(&d.file),
            d.start.line,
            d.end.line,
            d.start.column
        );
        if d.end.line == d.start.line {
            let end = d.end.column.saturating_sub(1).max(d.start.column);
            let _ = write!(out, ",endColumn={end}");
        }
        let _ = writeln!(
            out,
            ",title={}::{}",
            escape_property(d.rule),
            escape_data(&message)
        );
    }
    let hidden = hidden_annotations(diagnostics);
    if hidden > 0 {
        let _ = writeln!(
            out,
            "::notice title=toolsmith::{}",
            escape_data(&format!(
                "GitHub shows at most {ANNOTATION_LIMIT} error and {ANNOTATION_LIMIT} warning \
                 annotations per step: {hidden} of these {} are not shown. The full list is in \
                 the step summary and in the human output (`toolsmith lint`).",
                diagnostics.0.len()
            ))
        );
    }
    out
}

/// How many of the diagnostics' annotations GitHub does not show in one step.
pub fn hidden_annotations(diagnostics: &Diagnostics) -> usize {
    diagnostics.errors().saturating_sub(ANNOTATION_LIMIT)
        + diagnostics.warnings().saturating_sub(ANNOTATION_LIMIT)
}

/// A Markdown step summary of the diagnostics found in `files` files: a
/// heading, the counts and a table of every finding.
pub fn step_summary(diagnostics: &Diagnostics, files: usize) -> String {
    let mut out = String::from("## toolsmith lint\n\n");
    let _ = writeln!(
        out,
        "**Errors:** {} · **Warnings:** {} · **Files:** {}",
        diagnostics.errors(),
        diagnostics.warnings(),
        files
    );
    let hidden = hidden_annotations(diagnostics);
    if hidden > 0 {
        let _ = writeln!(
            out,
            "\nGitHub does not show {hidden} of these findings as annotations \
             (at most {ANNOTATION_LIMIT} errors and {ANNOTATION_LIMIT} warnings per step)."
        );
    }
    if diagnostics.0.is_empty() {
        out.push('\n');
        return out;
    }
    out.push_str("\n| Location | Severity | Rule | Message |\n| --- | --- | --- | --- |\n");
    for d in diagnostics.iter() {
        let message = message_with_help(d);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            markdown_cell(&format!("{}:{}:{}", d.file, d.start.line, d.start.column)),
            d.severity,
            markdown_cell(d.rule),
            markdown_cell(&message)
        );
    }
    // A blank line ends the table, whatever the next step appends.
    out.push('\n');
    out
}

/// Makes `s` safe inside a Markdown table cell: `|` is escaped and line
/// breaks become `<br>`.
pub fn markdown_cell(s: &str) -> String {
    s.replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace(['\r', '\n'], "<br>")
}

/// The message, then the help text on a new line.
fn message_with_help(d: &Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    }
}

/// Escapes a command's message: `%`, CR and LF.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value: as [`escape_data`], plus `:` and `,`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(escape_data("50%\r\nx: a,b"), "50%25%0D%0Ax: a,b");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn markdown_cells_escape_pipes_and_line_breaks() {
        assert_eq!(markdown_cell("a|b\r\nc\nd\re"), "a\\|b<br>c<br>d<br>e");
    }
}
