//! Markdown frontmatter: the YAML between a leading `---` line and the next
//! `---` line, found line by line (a UTF-8 BOM is skipped, CRLF is accepted).
//!
//! skills-ref and chai instead end the frontmatter at the first `---`
//! *anywhere*; [`Frontmatter::inner_delimiter`] records where that would cut
//! the YAML short.

use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::source::Span;

pub static MISSING: Rule = Rule::error(
    "frontmatter/missing",
    "frontmatter",
    "the file does not start with a `---` line opening the YAML frontmatter",
);
pub static UNTERMINATED: Rule = Rule::error(
    "frontmatter/unterminated",
    "frontmatter",
    "the YAML frontmatter has no closing `---` line",
);
pub static INNER_DELIMITER: Rule = Rule::warning(
    "frontmatter/inner-delimiter",
    "frontmatter",
    "`---` inside the frontmatter: skills-ref and chai end the frontmatter there (an error under `--profile strict`)",
);

/// The frontmatter rules.
pub static TRAILING_WHITESPACE: Rule = Rule::note(
    "frontmatter/trailing-whitespace",
    "frontmatter",
    "a frontmatter line ends in spaces or tabs (outside a block scalar, where YAML drops them; `--fix` removes them)",
);
pub static RULES: &[&Rule] = &[
    &MISSING,
    &UNTERMINATED,
    &INNER_DELIMITER,
    &TRAILING_WHITESPACE,
];

/// The trailing spaces and tabs of the lines of `yaml` (frontmatter text
/// starting at `offset` in the file), leaving out the lines of block
/// scalars (`|`, `>`), where they are content.
///
/// ```
/// use toolsmith_manifest::frontmatter::trailing_whitespace;
/// let yaml = "name: a  \nbody: |\n  kept  \nnext: b\t\n";
/// let spans = trailing_whitespace(yaml, 4);
/// let cut: Vec<&str> = spans.iter().map(|s| &yaml[s.start - 4..s.end - 4]).collect();
/// assert_eq!(cut, ["  ", "\t"]);
/// ```
pub fn trailing_whitespace(yaml: &str, offset: usize) -> Vec<Span> {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let mut out = Vec::new();
    let mut block: Option<usize> = None;
    let mut at = 0;
    for line in yaml.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let content = line.trim_end_matches('\n').trim_end_matches('\r');
        let blank = content.trim().is_empty();
        if let Some(header) = block {
            if blank || indent(content) > header {
                continue;
            }
            block = None;
        }
        let kept = content.trim_end_matches([' ', '\t']);
        if kept.len() < content.len() && !blank {
            out.push(Span::new(
                offset + start + kept.len(),
                offset + start + content.len(),
            ));
        }
        // `key: |`, `- >-`, `key: |2 # note`: a block scalar starts below.
        let value = kept.split(" #").next().unwrap_or(kept).trim_end();
        let opens = value.rsplit([' ', ':', '-']).next().is_some_and(|t| {
            t.starts_with(['|', '>']) && t[1..].chars().all(|c| matches!(c, '+' | '-' | '1'..='9'))
        }) && (value.contains(": ") || value.starts_with("- ") || value.ends_with(':'));
        if opens {
            block = Some(indent(content));
        }
    }
    out
}

/// A file split into frontmatter and body. Offsets are bytes into the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontmatter<'a> {
    /// The YAML text between the delimiter lines.
    pub yaml: &'a str,
    /// Where `yaml` starts in the file.
    pub yaml_offset: usize,
    /// The opening `---`.
    pub open: Span,
    /// The closing `---`.
    pub close: Span,
    /// Everything after the closing line.
    pub body: &'a str,
    /// Where `body` starts in the file.
    pub body_offset: usize,
    /// The first `---` inside `yaml`, where skills-ref and chai would end the frontmatter.
    pub inner_delimiter: Option<Span>,
}

/// The text of a line without its terminator and trailing blanks.
fn line_content(line: &str) -> &str {
    line.trim_end_matches('\n')
        .trim_end_matches('\r')
        .trim_end_matches([' ', '\t'])
}

/// Splits `text` (a whole file) into frontmatter and body. `label` names the
/// file in messages (`SKILL.md`, `x.skill.md`).
///
/// ```
/// use toolsmith_manifest::frontmatter::split;
/// let fm = split("---\r\nname: a\r\n---\r\nbody\n", "SKILL.md").unwrap();
/// assert_eq!(fm.yaml, "name: a\r\n");
/// assert_eq!(fm.body, "body\n");
/// let err = split("---\nname: a\n", "SKILL.md").unwrap_err();
/// assert_eq!(err.rule.id, "frontmatter/unterminated");
/// assert_eq!(err.span.start, 0);
/// ```
pub fn split<'a>(text: &'a str, label: &str) -> Result<Frontmatter<'a>, Finding> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[start..];
    let mut lines = rest.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if line_content(first) != "---" {
        let len = rest.chars().next().map_or(0, char::len_utf8);
        return Err(Finding::new(
            &MISSING,
            Span::new(start, start + len),
            "",
            format!("{label} must start with YAML frontmatter (---)"),
        )
        .with_help("put a line `---` first, then the YAML fields, then a closing `---` line"));
    }
    let open = Span::new(start, start + 3);
    let yaml_offset = start + first.len();
    let mut offset = yaml_offset;
    for line in lines {
        if line_content(line) == "---" {
            let yaml = &text[yaml_offset..offset];
            let body_offset = offset + line.len();
            let inner_delimiter = yaml
                .find("---")
                .map(|at| Span::new(yaml_offset + at, yaml_offset + at + 3));
            return Ok(Frontmatter {
                yaml,
                yaml_offset,
                open,
                close: Span::new(offset, offset + 3),
                body: &text[body_offset..],
                body_offset,
                inner_delimiter,
            });
        }
        offset += line.len();
    }
    Err(Finding::new(
        &UNTERMINATED,
        open,
        "",
        format!("{label} frontmatter not properly closed with ---"),
    )
    .with_help("add a line `---` after the last frontmatter field"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_skipped_and_offsets_stay_in_the_file() {
        let text = "\u{feff}---\nname: a\n---\n";
        let fm = split(text, "SKILL.md").unwrap();
        assert_eq!(fm.open, Span::new(3, 6));
        assert_eq!(&text[fm.yaml_offset..fm.yaml_offset + 7], "name: a");
        assert_eq!(fm.body, "");
    }

    #[test]
    fn missing_opening_line_points_at_the_first_character() {
        let err = split("name: a\n", "SKILL.md").unwrap_err();
        assert_eq!(err.rule.id, "frontmatter/missing");
        assert_eq!(err.span, Span::new(0, 1));
        assert_eq!(
            err.message,
            "SKILL.md must start with YAML frontmatter (---)"
        );
    }

    #[test]
    fn closing_line_may_have_trailing_blanks_and_no_newline() {
        let fm = split("---\na: 1\n--- \t", "x.skill.md").unwrap();
        assert_eq!(fm.yaml, "a: 1\n");
        assert_eq!(fm.close, Span::new(9, 12));
        assert_eq!(fm.body, "");
    }

    #[test]
    fn inner_dashes_are_recorded() {
        let fm = split("---\ndescription: a --- b\n---\n", "SKILL.md").unwrap();
        assert_eq!(fm.inner_delimiter, Some(Span::new(19, 22)));
    }

    #[test]
    fn a_dashes_line_with_text_is_not_a_delimiter() {
        let err = split("---\n--- x\n", "SKILL.md").unwrap_err();
        assert_eq!(err.rule.id, "frontmatter/unterminated");
    }
}
