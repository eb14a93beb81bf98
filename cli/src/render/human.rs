//! `--format human`: for each diagnostic a grep-friendly header
//! `path:line:col: severity[rule]: message`, an annotate-snippets excerpt of
//! the offending lines with a caret, and a `help:` line; then the summary
//! `N errors, M warnings in K files`.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use anstyle::{AnsiColor, Style};
use std::fmt::Write;
use toolsmith_manifest::source::Source;
use toolsmith_manifest::{Diagnostic, Diagnostics, Severity};

/// Ranges spanning more lines than this show only their first line.
const MAX_EXCERPT_LINES: usize = 6;

/// Renders the diagnostics for a terminal (`color`) or plain text.
pub fn render(diagnostics: &Diagnostics, files: usize, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in diagnostics.iter() {
        header(&mut out, d, color);
        if let Some(group) = excerpt(d, &d.source) {
            let _ = writeln!(out, "{}", renderer.render(&[group]));
        } else if let Some(help) = &d.help {
            let _ = writeln!(out, "  = help: {help}");
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{}, {} in {}",
        count(diagnostics.errors(), "error"),
        count(diagnostics.warnings(), "warning"),
        count(files, "file")
    );
    out
}

/// Renders diagnostics without a summary (used by `toolsmith gen` on failure).
pub fn render_diagnostics(diagnostics: &Diagnostics, color: bool) -> String {
    let full = render(diagnostics, 0, color);
    // Drop the summary line: the caller prints its own verdict.
    match full.trim_end_matches('\n').rfind('\n') {
        Some(i) => full[..=i].to_string(),
        None => String::new(),
    }
}

fn header(out: &mut String, d: &Diagnostic, color: bool) {
    let (bold, level) = if color {
        let level = match d.severity {
            Severity::Error => AnsiColor::BrightRed,
            Severity::Warning => AnsiColor::BrightYellow,
        };
        (
            Style::new().bold(),
            Style::new().bold().fg_color(Some(level.into())),
        )
    } else {
        (Style::new(), Style::new())
    };
    let _ = writeln!(
        out,
        "{bold}{}:{}:{}:{bold:#} {level}{}[{}]{level:#}{bold}: {}{bold:#}",
        d.file, d.start.line, d.start.column, d.severity, d.rule, d.message
    );
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The annotated excerpt of `d`, when its lines can be shown.
fn excerpt<'a>(d: &'a Diagnostic, source: &Source) -> Option<Group<'a>> {
    let first = d.start.line;
    let mut last = d.end.line.max(first);
    if last - first >= MAX_EXCERPT_LINES || last > source.line_count() {
        last = first;
    }
    let lines: Vec<String> = (first..=last)
        .map(|n| printable(source.line_text(n)))
        .collect();
    if lines.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let start = byte_at(&lines[0], d.start.column);
    let end_line = &lines[lines.len() - 1];
    let end_in_line = if last == d.end.line {
        byte_at(end_line, d.end.column)
    } else {
        end_line.len()
    };
    let end = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.len() + 1)
        .sum::<usize>()
        + end_in_line;
    let text = lines.join("\n");
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let label = if d.pointer.is_empty() {
        None
    } else {
        Some(format!("at {}", d.pointer))
    };
    let snippet = Snippet::source(text)
        .line_start(first)
        .fold(false)
        .annotation(
            AnnotationKind::Primary
                .span(start..end.max(start))
                .label(label),
        );
    let mut group = Group::with_level(level.clone()).element(snippet);
    if let Some(help) = &d.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    Some(group)
}

/// Byte offset of 1-based character column `column` in `line` (clamped).
fn byte_at(line: &str, column: usize) -> usize {
    line.char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line.len(), |(i, _)| i)
}

/// A line made safe to print: control characters (except tab) and the BOM
/// become U+FFFD, one character for one, so columns still match.
fn printable(line: &str) -> String {
    line.chars()
        .map(|c| {
            if (c.is_control() && c != '\t') || c == '\u{feff}' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect()
}
