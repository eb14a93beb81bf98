//! `--format github`: GitHub Actions workflow commands, one line per diagnostic:
//! `::error file=F,line=L,endLine=L2,col=C,endColumn=C2,title=RULE::MESSAGE`.
//!
//! `endColumn` is inclusive here (GitHub's convention), so a one-character
//! range has `col == endColumn`; it is only given when the range is on one line.

use std::fmt::Write;
use toolsmith_manifest::{Diagnostics, Severity};

/// Renders the diagnostics as workflow commands.
pub fn render(diagnostics: &Diagnostics) -> String {
    let mut out = String::new();
    for d in diagnostics.iter() {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
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
    out
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
}
