//! The YAML front end: YAML 1.2 text (a skill's frontmatter) to a positioned
//! [`Node`] tree, built on `saphyr-parser`'s event stream.
//!
//! Two passes over the events. The first screens the stream before anything
//! is built: anchors and aliases (alias bombs) are refused outright, as are
//! tags, a second document and nesting deeper than
//! [`MAX_DEPTH`](crate::input::MAX_DEPTH); syntax errors stop it. The second
//! pass builds the tree, keeping duplicate keys (reported), resolving plain
//! scalars with the YAML 1.2 core schema, and recording flow-style
//! collections (rejected by skills-ref's strictyaml) and YAML 1.1 booleans.
//!
//! saphyr's markers are *character* indexes (with 0-based columns), not byte
//! offsets; every span here is converted to bytes and shifted to the file's
//! offsets.

use crate::diagnostic::Finding;
use crate::input::{MAX_DEPTH, TOO_DEEP};
use crate::rules::Rule;
use crate::source::Span;
use crate::tree::{Frame, Kind, Member, Node, Place, child_pointer, index_pointer};
use saphyr::Scalar;
use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span as YamlSpan, StrInput};
use std::collections::HashSet;

pub static SYNTAX: Rule = Rule::error("yaml/syntax", "yaml", "the frontmatter is not valid YAML");
pub static DUPLICATE_KEY: Rule = Rule::error(
    "yaml/duplicate-key",
    "yaml",
    "a mapping has the same key twice (most loaders silently keep the last one)",
);
pub static ANCHOR: Rule = Rule::error(
    "yaml/anchor",
    "yaml",
    "YAML anchors and aliases are refused (alias bombs; strictyaml rejects them too)",
);
pub static TAG: Rule = Rule::error(
    "yaml/tag",
    "yaml",
    "YAML tags (`!!str`, `!custom`) are refused (strictyaml rejects them too)",
);
pub static TAB_INDENT: Rule = Rule::error(
    "yaml/tab-indent",
    "yaml",
    "a tab is used for indentation, which YAML forbids",
);
pub static MULTIPLE_DOCUMENTS: Rule = Rule::error(
    "yaml/multiple-documents",
    "yaml",
    "the frontmatter holds more than one YAML document",
);
pub static COMPLEX_KEY: Rule = Rule::error(
    "yaml/complex-key",
    "yaml",
    "a mapping key is a sequence or a mapping, which JSON cannot represent",
);
pub static NON_STRING_KEY: Rule = Rule::warning(
    "yaml/non-string-key",
    "yaml",
    "a mapping key is a number, boolean or null in YAML 1.2; it is read as its text",
);
pub static YAML11_BOOLEAN: Rule = Rule::warning(
    "yaml/yaml11-boolean",
    "yaml",
    "`yes`/`no`/`on`/`off` are strings in YAML 1.2 but booleans in YAML 1.1 loaders (PyYAML)",
);

/// The YAML front-end rules.
pub static RULES: &[&Rule] = &[
    &SYNTAX,
    &DUPLICATE_KEY,
    &ANCHOR,
    &TAG,
    &TAB_INDENT,
    &MULTIPLE_DOCUMENTS,
    &COMPLEX_KEY,
    &NON_STRING_KEY,
    &YAML11_BOOLEAN,
];

/// At most this many findings from the screening pass (an input full of
/// aliases must not produce millions of findings).
const MAX_SCREEN_FINDINGS: usize = 100;

/// A flow-style collection (`[a, b]`, `{k: v}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    /// The collection, brackets included.
    pub span: Span,
    /// Its JSON pointer.
    pub pointer: String,
    /// `{…}` rather than `[…]`.
    pub mapping: bool,
}

/// A parsed YAML document.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The document, when it could be built (absent after a syntax error, an
    /// anchor or alias, or too deep a nesting; `Null` for an empty document).
    pub root: Option<Node>,
    /// Findings of the YAML layer.
    pub findings: Vec<Finding>,
    /// The outermost flow-style collections, in source order.
    pub flow: Vec<Flow>,
}

/// Parses `text`, a slice of a file that starts at byte `offset`; every span
/// in the result is in the file's byte offsets.
///
/// ```
/// use toolsmith_manifest::yaml::parse;
/// let p = parse("name: \"é\"\nname: b\n", 4);
/// assert_eq!(p.findings[0].rule.id, "yaml/duplicate-key");
/// let root = p.root.unwrap();
/// assert_eq!(root.get("name").unwrap().as_str(), Some("b"));
/// // `name: "é"` and its newline are 11 bytes: the second key starts at byte 4 + 11.
/// assert_eq!(root.as_object().unwrap()[1].key_span.start, 15);
/// let p = parse("a: &x 1\nb: *x\n", 0);
/// assert!(p.root.is_none());
/// assert_eq!(p.findings.len(), 2);
/// ```
pub fn parse(text: &str, offset: usize) -> Parsed {
    let positions = Positions::new(text, offset);
    let mut parsed = Parsed::default();
    if !screen(text, &positions, &mut parsed.findings) {
        return parsed;
    }
    let mut builder = Builder {
        parser: Parser::new_from_str(text),
        positions: &positions,
        findings: &mut parsed.findings,
        flow: &mut parsed.flow,
        flow_depth: 0,
        in_key: false,
    };
    parsed.root = builder.document();
    parsed
}

/// Converts saphyr's character indexes into file byte offsets.
struct Positions<'t> {
    text: &'t str,
    offset: usize,
    /// Byte offset of every 64th character (empty for ASCII text).
    checkpoints: Vec<usize>,
}

impl<'t> Positions<'t> {
    const STEP: usize = 64;

    fn new(text: &'t str, offset: usize) -> Self {
        let checkpoints = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices()
                .step_by(Self::STEP)
                .map(|(at, _)| at)
                .collect()
        };
        Positions {
            text,
            offset,
            checkpoints,
        }
    }

    /// Byte offset in the file of the character with index `index`.
    fn byte(&self, index: usize) -> usize {
        if self.checkpoints.is_empty() {
            return self.offset + index.min(self.text.len());
        }
        let Some(&base) = self.checkpoints.get(index / Self::STEP) else {
            return self.offset + self.text.len();
        };
        let at = self.text[base..]
            .char_indices()
            .nth(index % Self::STEP)
            .map_or(self.text.len(), |(at, _)| base + at);
        self.offset + at
    }

    fn span(&self, span: YamlSpan) -> Span {
        let start = self.byte(span.start.index());
        Span::new(start, self.byte(span.end.index()).max(start))
    }

    /// One character at a character index.
    fn char_span(&self, index: usize) -> Span {
        let start = self.byte(index);
        let len = self.text[start - self.offset..]
            .chars()
            .next()
            .map_or(0, char::len_utf8);
        Span::new(start, start + len)
    }
}

/// First pass: refuses what must not be built. Returns true when the tree may
/// be built.
fn screen(text: &str, positions: &Positions<'_>, findings: &mut Vec<Finding>) -> bool {
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    let mut documents = 0usize;
    let mut buildable = true;
    while let Some(event) = parser.next_event() {
        if findings.len() >= MAX_SCREEN_FINDINGS {
            return false;
        }
        let (event, span) = match event {
            Ok(e) => e,
            Err(e) => {
                findings.push(syntax_finding(text, positions, &e));
                return false;
            }
        };
        let at = positions.span(span);
        let (anchor, tag) = match &event {
            Event::StreamEnd => break,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    findings.push(Finding::new(
                        &MULTIPLE_DOCUMENTS,
                        at,
                        "",
                        "a second YAML document starts here; the frontmatter must be one mapping",
                    ));
                    return false;
                }
                (0, None)
            }
            Event::Alias(_) => {
                findings.push(
                    Finding::new(
                        &ANCHOR,
                        at,
                        "",
                        "YAML alias: anchors and aliases are not allowed",
                    )
                    .with_help("write the value out instead of referring to an anchor"),
                );
                buildable = false;
                (0, None)
            }
            Event::Scalar(_, _, anchor, tag) => (*anchor, tag.as_ref()),
            Event::SequenceStart(anchor, tag) | Event::MappingStart(anchor, tag) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    findings.push(Finding::new(
                        &TOO_DEEP,
                        at,
                        "",
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                    return false;
                }
                (*anchor, tag.as_ref())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                depth = depth.saturating_sub(1);
                (0, None)
            }
            _ => (0, None),
        };
        if anchor != 0 {
            findings.push(
                Finding::new(
                    &ANCHOR,
                    at,
                    "",
                    "YAML anchor: anchors and aliases are not allowed",
                )
                .with_help("remove the `&anchor` and write repeated values out"),
            );
            buildable = false;
        }
        if let Some(tag) = tag {
            findings.push(
                Finding::new(
                    &TAG,
                    at,
                    "",
                    format!("YAML tag `{}` is not allowed", tag_text(tag)),
                )
                .with_help("remove the tag; quote the value if it must be a string"),
            );
        }
    }
    buildable
}

fn syntax_finding(text: &str, positions: &Positions<'_>, e: &ScanError) -> Finding {
    let info = e.info();
    let marker = e.marker();
    if info.contains("tab") {
        // saphyr reports some indentation tabs at the start of the enclosing
        // construct; point at the first indenting tab from the error's line on.
        let line_start = text
            .split_inclusive('\n')
            .take(marker.line().saturating_sub(1))
            .map(str::len)
            .sum::<usize>();
        let mut at = line_start;
        for line in text[line_start.min(text.len())..].split_inclusive('\n') {
            let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
            if let Some(tab) = line[..indent].find('\t') {
                let start = positions.offset + at + tab;
                return Finding::new(
                    &TAB_INDENT,
                    Span::new(start, start + 1),
                    "",
                    format!("tab character in indentation ({info})"),
                )
                .with_help("indent with spaces");
            }
            at += line.len();
        }
    }
    Finding::new(&SYNTAX, positions.char_span(marker.index()), "", {
        let mut m = format!("invalid YAML: {info}");
        if info.contains("mapping values are not allowed") {
            m.push_str(" (an unquoted `: ` inside a value?)");
        }
        m
    })
    .with_help(
        "quote values that contain `: `, `#`, or start with `[`, `{`, `*`, `&`, `!`, `|`, `>`",
    )
}

/// A tag as it is usually written (`!!str` rather than `tag:yaml.org,2002:str`).
fn tag_text(tag: &saphyr_parser::Tag) -> String {
    if tag.is_yaml_core_schema() {
        format!("!!{}", tag.suffix)
    } else {
        format!("{}{}", tag.handle, tag.suffix)
    }
}

/// YAML 1.1 booleans that YAML 1.2 reads as strings.
fn is_yaml11_boolean(s: &str) -> bool {
    matches!(
        s,
        "yes" | "Yes" | "YES" | "no" | "No" | "NO" | "on" | "On" | "ON" | "off" | "Off" | "OFF"
    )
}

struct Builder<'t, 'p> {
    parser: Parser<'t, StrInput<'t>>,
    positions: &'p Positions<'t>,
    findings: &'p mut Vec<Finding>,
    flow: &'p mut Vec<Flow>,
    flow_depth: usize,
    in_key: bool,
}

impl<'t> Builder<'t, '_> {
    /// The next event; errors were reported by the screening pass.
    fn next(&mut self) -> Option<(Event<'t>, YamlSpan)> {
        self.parser.next_event()?.ok()
    }

    fn document(&mut self) -> Option<Node> {
        loop {
            let (event, span) = self.next()?;
            match event {
                Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => continue,
                Event::DocumentEnd | Event::StreamEnd => {
                    let at = self.positions.span(span);
                    return Some(Node {
                        kind: Kind::Null,
                        span: Span::new(at.start, at.start),
                        place: Place::root(),
                    });
                }
                _ => return self.node(event, span, String::new(), Place::root()),
            }
        }
    }

    /// Builds the node that `event` starts at `place`; `pointer` is its JSON
    /// pointer, spelled out for the findings.
    fn node(
        &mut self,
        event: Event<'t>,
        span: YamlSpan,
        pointer: String,
        place: Place,
    ) -> Option<Node> {
        let start = self.positions.span(span);
        match event {
            Event::Scalar(value, style, _, tag) => {
                let kind =
                    match Scalar::parse_from_cow_and_metadata(value.clone(), style, tag.as_ref()) {
                        Some(Scalar::Null) => Kind::Null,
                        Some(Scalar::Boolean(b)) => Kind::Bool(b),
                        Some(Scalar::Integer(i)) => Kind::Number(i.into()),
                        Some(Scalar::FloatingPoint(f)) => {
                            serde_json::Number::from_f64(f.into_inner())
                                .map_or_else(|| Kind::String(value.to_string()), Kind::Number)
                        }
                        Some(Scalar::String(s)) => Kind::String(s.into_owned()),
                        None => Kind::String(value.into_owned()),
                    };
                if let Kind::String(s) = &kind
                    && style == ScalarStyle::Plain
                    && !self.in_key
                    && is_yaml11_boolean(s)
                {
                    self.findings.push(
                        Finding::new(
                            &YAML11_BOOLEAN,
                            start,
                            pointer.clone(),
                            format!("`{s}` is the string \"{s}\" in YAML 1.2 but a boolean in YAML 1.1 loaders such as PyYAML"),
                        )
                        .with_help(format!("write `\"{s}\"` for a string, or `true`/`false` for a boolean")),
                    );
                }
                Some(Node {
                    kind,
                    span: start,
                    place,
                })
            }
            Event::SequenceStart(..) => {
                let flow = !span.is_empty();
                self.enter_flow(flow);
                let mut items = Vec::new();
                let frame = Frame::array(&place);
                let mut end = start.end;
                loop {
                    let (event, span) = self.next()?;
                    if let Event::SequenceEnd = event {
                        if flow {
                            end = self.positions.span(span).end;
                        }
                        break;
                    }
                    let slot = items.len();
                    let item = self.node(
                        event,
                        span,
                        index_pointer(&pointer, slot),
                        frame.child(slot),
                    )?;
                    end = end.max(item.span.end);
                    items.push(item);
                }
                let span = Span::new(start.start, end);
                self.leave_flow(flow, span, &pointer, false);
                items.shrink_to_fit();
                Some(Node {
                    kind: Kind::Array(items),
                    span,
                    place,
                })
            }
            Event::MappingStart(..) => {
                let flow = !span.is_empty();
                self.enter_flow(flow);
                let mut members: Vec<Member> = Vec::new();
                let mut keys: HashSet<String> = HashSet::new();
                let frame = Frame::object(&place);
                let mut end = start.end;
                loop {
                    let (event, span) = self.next()?;
                    if let Event::MappingEnd = event {
                        if flow {
                            end = self.positions.span(span).end;
                        }
                        break;
                    }
                    let key = self.key(event, span, &pointer, &place)?;
                    let (event, span) = self.next()?;
                    let Some((key, key_span)) = key else {
                        // A complex key: build its value to stay in step, then drop both.
                        let value = self.node(event, span, pointer.clone(), place.clone())?;
                        end = end.max(value.span.end);
                        continue;
                    };
                    let child = child_pointer(&pointer, &key);
                    if !keys.insert(key.clone()) {
                        self.findings.push(
                            Finding::new(&DUPLICATE_KEY, key_span, child.clone(), format!("duplicate key `{key}`"))
                                .with_help("remove one of them: loaders silently keep one value and drop the other"),
                        );
                    }
                    let slot = members.len();
                    let value = self.node(event, span, child, frame.child(slot))?;
                    end = end.max(value.span.end).max(key_span.end);
                    members.push(Member {
                        key,
                        key_span,
                        value,
                    });
                }
                let span = Span::new(start.start, end);
                self.leave_flow(flow, span, &pointer, true);
                members.shrink_to_fit();
                frame.set_keys(members.iter().map(|m| m.key.as_str()));
                Some(Node {
                    kind: Kind::Object(members),
                    span,
                    place,
                })
            }
            // Aliases were refused by the screening pass; the rest cannot start a node.
            _ => None,
        }
    }

    /// Reads a mapping key. `Some(None)` for a complex key (reported and skipped).
    fn key(
        &mut self,
        event: Event<'t>,
        span: YamlSpan,
        pointer: &str,
        place: &Place,
    ) -> Option<Option<(String, Span)>> {
        self.in_key = true;
        let key = self.node(
            event,
            span,
            format!("{pointer}/?"),
            Frame::fixed(place, "?").child(0),
        );
        self.in_key = false;
        let key = key?;
        match key.kind {
            Kind::String(s) => Some(Some((s, key.span))),
            Kind::Null | Kind::Bool(_) | Kind::Number(_) => {
                let text = &self.positions.text
                    [key.span.start - self.positions.offset..key.span.end - self.positions.offset];
                self.findings.push(
                    Finding::new(
                        &NON_STRING_KEY,
                        key.span,
                        pointer.to_string(),
                        format!(
                            "key `{text}` is a {} in YAML 1.2, not a string",
                            key.type_name()
                        ),
                    )
                    .with_help(format!("quote it: `\"{text}\":`")),
                );
                Some(Some((text.to_string(), key.span)))
            }
            Kind::Array(_) | Kind::Object(_) => {
                self.findings.push(Finding::new(
                    &COMPLEX_KEY,
                    key.span,
                    pointer.to_string(),
                    format!(
                        "a {} used as a mapping key",
                        if key.as_array().is_some() {
                            "sequence"
                        } else {
                            "mapping"
                        }
                    ),
                ));
                Some(None)
            }
        }
    }

    fn enter_flow(&mut self, flow: bool) {
        if flow {
            self.flow_depth += 1;
        }
    }

    fn leave_flow(&mut self, flow: bool, span: Span, pointer: &str, mapping: bool) {
        if flow {
            self.flow_depth -= 1;
            if self.flow_depth == 0 {
                self.flow.push(Flow {
                    span,
                    pointer: pointer.to_string(),
                    mapping,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(p: &Parsed) -> Vec<&str> {
        p.findings.iter().map(|f| f.rule.id).collect()
    }

    #[test]
    fn core_schema_scalars() {
        let p = parse("a: 123\nb: true\nc: ~\nd: '1'\ne: 1.5\nf:\ng: yes\n", 0);
        let v = p.root.as_ref().unwrap().to_value();
        assert_eq!(
            v,
            serde_json::json!({"a": 123, "b": true, "c": null, "d": "1", "e": 1.5, "f": null, "g": "yes"})
        );
        assert_eq!(ids(&p), ["yaml/yaml11-boolean"]);
    }

    #[test]
    fn spans_are_bytes_shifted_by_the_offset() {
        let text = "k: \"ü\"\nm:\n  - x\n";
        let p = parse(text, 10);
        let root = p.root.unwrap();
        let k = root.get("k").unwrap();
        assert_eq!(k.span, Span::new(13, 17));
        let x = root.at_pointer("/m/0").unwrap();
        assert_eq!(&text[x.span.start - 10..x.span.end - 10], "x");
        assert_eq!(x.pointer(), "/m/0");
    }

    #[test]
    fn flow_collections_are_recorded_once_at_the_outermost_level() {
        let text = "a: [1, {b: c}]\nd:\n  e: {}\n";
        let p = parse(text, 0);
        let spans: Vec<&str> = p
            .flow
            .iter()
            .map(|f| &text[f.span.start..f.span.end])
            .collect();
        assert_eq!(spans, ["[1, {b: c}]", "{}"]);
        assert_eq!(p.flow[1].pointer, "/d/e");
        assert!(p.flow[1].mapping);
    }

    #[test]
    fn refusals_have_positions() {
        let p = parse("a: !!str x\n", 0);
        assert_eq!(ids(&p), ["yaml/tag"]);
        let p = parse("a: 1\n\tb: 2\n", 0);
        assert_eq!(ids(&p), ["yaml/tab-indent"]);
        assert_eq!(p.findings[0].span, Span::new(5, 6));
        let deep = format!("a: {}{}", "[".repeat(200), "]".repeat(200));
        let p = parse(&deep, 0);
        assert_eq!(ids(&p), ["input/too-deep"]);
        assert!(p.root.is_none());
        let p = parse("a: 1\n...\nb: 2\n", 0);
        assert_eq!(ids(&p), ["yaml/multiple-documents"]);
    }

    #[test]
    fn alias_bombs_are_refused_before_building() {
        let mut text = String::from("a: &a [x, x]\n");
        for i in 0..30 {
            text.push_str(&format!("b{i}: &b{i} [*a, *a]\n"));
        }
        let p = parse(&text, 0);
        assert!(p.root.is_none());
        assert!(ids(&p).iter().all(|id| *id == "yaml/anchor"));
        assert!(p.findings.len() <= MAX_SCREEN_FINDINGS);
    }

    #[test]
    fn syntax_error_points_at_a_character() {
        let p = parse("description: Use when: x\n", 0);
        assert_eq!(ids(&p), ["yaml/syntax"]);
        assert_eq!(p.findings[0].span.end - p.findings[0].span.start, 1);
    }

    #[test]
    fn keys() {
        let p = parse("1: a\n? [x]\n: y\n", 0);
        assert_eq!(ids(&p), ["yaml/non-string-key", "yaml/complex-key"]);
        assert_eq!(
            p.root.as_ref().unwrap().to_value(),
            serde_json::json!({"1": "a"})
        );
    }

    #[test]
    fn empty_document_is_null() {
        let p = parse("# only a comment\n", 0);
        assert!(p.root.unwrap().is_null());
        assert!(p.findings.is_empty());
    }
}
