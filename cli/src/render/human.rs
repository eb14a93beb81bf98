//! `--format human`: for each diagnostic a grep-friendly header
//! `path:line:col: severity[rule]: message`, an annotate-snippets excerpt of
//! the offending lines with a caret, and a `help:` line; then the summary
//! `N errors, M warnings[, P notes] in K files[ (profile claude-code; S skipped by --exclude)]`.

use super::Run;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use anstyle::{AnsiColor, Style};
use std::fmt::Write;
use toolsmith_manifest::source::Source;
use toolsmith_manifest::{Diagnostic, Diagnostics, Severity};

/// Ranges spanning more lines than this show only their first line.
const MAX_EXCERPT_LINES: usize = 6;

/// Renders the diagnostics for a terminal (`color`) or plain text.
pub fn render(diagnostics: &Diagnostics, run: &Run, color: bool) -> String {
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
    let notes = match diagnostics.notes() {
        0 => String::new(),
        n => format!(", {}", count(n, "note")),
    };
    let _ = writeln!(
        out,
        "{}, {}{notes} in {}{}",
        count(diagnostics.errors(), "error"),
        count(diagnostics.warnings(), "warning"),
        count(run.files, "file"),
        run_details(run)
    );
    out
}

/// ` (profile claude-code; 2 skipped by --exclude)`, or nothing when no skill
/// was linted and nothing skipped.
fn run_details(run: &Run) -> String {
    let mut parts = Vec::new();
    match run.profiles.len() {
        0 => {}
        1 => parts.extend(run.profiles.keys().map(|p| format!("profile {p}"))),
        _ => {
            let each: Vec<String> = run
                .profiles
                .iter()
                .map(|(p, n)| format!("{p} {}", count(*n, "file")))
                .collect();
            parts.push(format!("profiles {}", each.join(", ")));
        }
    }
    if run.skipped > 0 {
        parts.push(format!("{} skipped by --exclude", run.skipped));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

/// Renders diagnostics without a summary (used by `toolsmith gen` on failure).
pub fn render_diagnostics(diagnostics: &Diagnostics, color: bool) -> String {
    let full = render(diagnostics, &Run::default(), color);
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
            Severity::Note => AnsiColor::BrightCyan,
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
///
/// A line longer than [`LONG_LINE`] bytes is cut to a window of about
/// [`CONTEXT`] characters either side of the range (at most [`WINDOW`]
/// characters of the range itself), marked with `…` where text was left out,
/// so that an excerpt costs the same on a 4 MB line as on a short one.
fn excerpt<'a>(d: &'a Diagnostic, source: &Source) -> Option<Group<'a>> {
    let first = d.start.line;
    let mut last = d.end.line.max(first);
    if last - first >= MAX_EXCERPT_LINES || last > source.line_count() {
        last = first;
    }
    let text = source.text();
    let mut lines: Vec<String> = Vec::with_capacity(last - first + 1);
    let (mut start, mut end) = (0, 0);
    let mut before = 0;
    for n in first..=last {
        let line_start = source.line_start(n);
        let line_end = line_start + source.line_text(n).len();
        let from = if n == first {
            floor_boundary(text, d.span.start.clamp(line_start, line_end))
        } else {
            line_start
        };
        let to = if n == last && last == d.end.line {
            floor_boundary(text, d.span.end.clamp(from, line_end))
        } else {
            line_end
        };
        let window = Window::around(text, line_start, line_end, from, to);
        let shown = window.render(text);
        if n == first {
            start = before + byte_at(&shown, window.column_of(text, from));
        }
        if n == last {
            end = before + byte_at(&shown, window.column_of(text, to.min(window.end)));
        }
        before += shown.len() + 1;
        lines.push(shown);
    }
    if lines.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let text = lines.join("\n");
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
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

/// Lines longer than this many bytes are shown as a window around the range.
const LONG_LINE: usize = 240;
/// Characters of context shown before and after the range on a long line.
const CONTEXT: usize = 60;
/// Characters of the range itself shown on a long line.
const WINDOW: usize = 120;
/// Marks text left out of a long line.
const ELLIPSIS: char = '…';

/// The part of one line that is shown: bytes `start..end` of the text.
struct Window {
    start: usize,
    end: usize,
    cut_before: bool,
    cut_after: bool,
}

impl Window {
    /// The whole line when it is short; else about [`CONTEXT`] characters
    /// either side of `from..to`, and at most [`WINDOW`] characters of it.
    /// Reads only the bytes it shows (and a few around them).
    fn around(text: &str, line_start: usize, line_end: usize, from: usize, to: usize) -> Window {
        if line_end - line_start <= LONG_LINE {
            return Window {
                start: line_start,
                end: line_end,
                cut_before: false,
                cut_after: false,
            };
        }
        let start = text[line_start..from]
            .char_indices()
            .rev()
            .nth(CONTEXT.saturating_sub(1))
            .map_or(line_start, |(i, _)| line_start + i);
        let limit = text[from..to]
            .char_indices()
            .nth(WINDOW)
            .map_or(to, |(i, _)| from + i);
        let end = text[limit..line_end]
            .char_indices()
            .nth(CONTEXT)
            .map_or(line_end, |(i, _)| limit + i);
        Window {
            start,
            end,
            cut_before: start > line_start,
            cut_after: end < line_end,
        }
    }

    /// The shown text, made printable, with `…` where the line was cut.
    fn render(&self, text: &str) -> String {
        let mut shown = String::new();
        if self.cut_before {
            shown.push(ELLIPSIS);
        }
        shown.push_str(&printable(&text[self.start..self.end]));
        if self.cut_after {
            shown.push(ELLIPSIS);
        }
        shown
    }

    /// The 1-based column in the shown text of byte `at` (inside the window).
    fn column_of(&self, text: &str, at: usize) -> usize {
        let at = at.clamp(self.start, self.end);
        text[self.start..at].chars().count() + 1 + usize::from(self.cut_before)
    }
}

/// `at`, moved back to a character boundary of `text`.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use toolsmith_manifest::Finding;
    use toolsmith_manifest::json::DUPLICATE_KEY;
    use toolsmith_manifest::source::Span;

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_range() {
        let text = format!("{{\"a\":\"{}\",\"é\":1,\"é\":1}}", "y".repeat(1_000_000));
        let at = text.rfind("\"é\"").unwrap();
        let source = Arc::new(Source::new("t.json", text.as_str()));
        let d = Finding::new(
            &DUPLICATE_KEY,
            Span::new(at, at + 4),
            "/é",
            "duplicate key `é`",
        )
        .locate_shared(&source);
        let run = Run {
            files: 1,
            ..Run::default()
        };
        let out = render(&Diagnostics(vec![d]), &run, false);
        let excerpt = out.lines().nth(2).unwrap();
        assert!(excerpt.starts_with("1 | …yyy"), "{excerpt}");
        assert!(excerpt.ends_with(",\"é\":1}"), "{excerpt}");
        assert!(excerpt.chars().count() < 2 * CONTEXT + 20, "{excerpt}");
        let caret = out.lines().nth(3).unwrap();
        let column = caret.find('^').unwrap();
        let under: String = excerpt.chars().skip(column).take(3).collect();
        assert_eq!(under, "\"é\"", "{out}");
    }

    #[test]
    fn a_long_range_shows_its_start() {
        let text = format!("[\"{}\"]", "z".repeat(10_000));
        let source = Arc::new(Source::new("t.json", text.as_str()));
        let d = Finding::new(&DUPLICATE_KEY, Span::new(1, text.len() - 1), "/0", "long")
            .locate_shared(&source);
        let run = Run {
            files: 1,
            ..Run::default()
        };
        let out = render(&Diagnostics(vec![d]), &run, false);
        let excerpt = out.lines().nth(2).unwrap();
        assert!(excerpt.starts_with("1 | [\"zzz"), "{excerpt}");
        assert!(excerpt.ends_with('…'), "{excerpt}");
        assert!(excerpt.chars().count() < WINDOW + CONTEXT + 10, "{excerpt}");
    }
}
