//! The JSON front end: strict JSON text to a positioned [`Node`] tree.
//!
//! A hand-written parser for JSON exactly as RFC 8259 defines it (no
//! comments, trailing commas, single quotes, unescaped control characters in
//! strings, leading zeros, `NaN`, …) that builds the positioned tree in one
//! pass. Syntax errors point at the offending character; duplicate keys
//! (which serde_json would silently resolve to the last one), lone surrogate
//! escapes and nesting deeper than [`MAX_DEPTH`](crate::input::MAX_DEPTH) are
//! findings too. The JSONTestSuite cases in `tests/jsontestsuite.rs` check it.

use crate::cap::Limiter;
use crate::diagnostic::Finding;
use crate::input::{MAX_DEPTH, TOO_DEEP};
use crate::rules::Rule;
use crate::source::Span;
use crate::tree::{Frame, Kind, Member, Node, Place, child_pointer, index_pointer};
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// Objects with more members than this check duplicate keys with a hash set.
const SMALL_OBJECT: usize = 8;

pub static SYNTAX: Rule = Rule::error("json/syntax", "json", "the file is not valid JSON");
pub static DUPLICATE_KEY: Rule = Rule::error(
    "json/duplicate-key",
    "json",
    "an object has the same key twice (serde_json silently keeps the last one)",
);

/// The JSON front-end rules.
pub static RULES: &[&Rule] = &[&SYNTAX, &DUPLICATE_KEY];

/// A parsed JSON document: the tree (absent after a syntax error) and the findings.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The document, when it parsed.
    pub root: Option<Node>,
    /// Syntax, duplicate-key and depth findings.
    pub findings: Vec<Finding>,
}

/// Parses strict JSON. `text` may start with a BOM, which is skipped (the
/// caller reports it, see [`check_bom`](crate::input::check_bom)).
///
/// ```
/// use toolsmith_manifest::json::parse;
/// let p = parse(r#"{"a": 1, "a": 2}"#);
/// assert_eq!(p.findings[0].rule.id, "json/duplicate-key");
/// assert_eq!(p.root.unwrap().to_value()["a"], 2);
/// let p = parse("{\"a\": 1,}");
/// assert_eq!(p.findings[0].rule.id, "json/syntax");
/// assert_eq!(p.findings[0].span.start, 7);
/// ```
pub fn parse(text: &str) -> Parsed {
    let offset = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = &text[offset..];
    let mut parsed = Parsed::default();
    if let Some(at) = first_too_deep(body) {
        parsed.findings.push(Finding::new(
            &TOO_DEEP,
            Span::new(at + offset, at + offset + 1),
            "",
            format!("nesting deeper than {MAX_DEPTH} levels; not parsed"),
        ));
        return parsed;
    }
    let mut parser = Parser {
        text: body.as_bytes(),
        body,
        at: 0,
        offset,
        findings: Vec::new(),
        limiter: Limiter::default(),
        open: Vec::new(),
        elements: Vec::new(),
        members: Vec::new(),
        hasher: std::collections::hash_map::RandomState::new(),
    };
    parser.skip_ws();
    if parser.at == body.len() {
        parsed.findings.push(Finding::new(
            &SYNTAX,
            Span::new(text.len(), text.len()),
            "",
            "expected a JSON value, found only whitespace",
        ));
        return parsed;
    }
    let root = parser.value(Place::root()).and_then(|root| {
        parser.skip_ws();
        if parser.at < body.len() {
            let found = parser.found();
            return Err(parser.comment_or(format!(
                "unexpected {found} after the end of the JSON value"
            )));
        }
        Ok(root)
    });
    let summaries = parser.limiter.summaries();
    parsed.findings = parser.findings;
    match root {
        Ok(root) => {
            parsed.root = Some(root);
            parsed.findings.extend(summaries);
        }
        // After a syntax error only that error is reported: findings before
        // it (duplicate keys) describe a document that does not exist.
        Err(e) => parsed.findings = vec![*e],
    }
    parsed
}

/// Byte offset of the first `[` or `{` nested deeper than [`MAX_DEPTH`], found
/// by a linear scan before parsing, so that the position is exact and the
/// parser never recurses that deep.
fn first_too_deep(body: &str) -> Option<usize> {
    // The depth never exceeds the number of opening brackets, and counting
    // them is much cheaper than the scan below: most files have few.
    let opening = body.bytes().filter(|&b| b == b'[' || b == b'{').count();
    if opening <= MAX_DEPTH {
        return None;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in body.as_bytes().iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// A syntax error: one finding, and parsing stops.
type Failed = Box<Finding>;

/// A recursive-descent parser for RFC 8259 JSON that builds the positioned
/// tree directly (no intermediate syntax tree), so a file costs its tree and
/// nothing more. Recursion is bounded: [`first_too_deep`] refuses deeper
/// nesting before parsing starts.
struct Parser<'t> {
    text: &'t [u8],
    body: &'t str,
    /// The next byte to read.
    at: usize,
    /// Bytes skipped before `body` (a BOM), added to every span.
    offset: usize,
    findings: Vec<Finding>,
    /// Keeps a million duplicate keys from becoming a million findings in memory.
    limiter: Limiter,
    /// The arrays and objects being read, outermost first.
    open: Vec<Open>,
    /// Elements of the arrays being read (each array's are on top of its
    /// parent's), moved into an exactly sized `Vec` when the array closes.
    elements: Vec<Node>,
    /// Members of the objects being read, likewise.
    members: Vec<Member>,
    /// Hashes keys for the duplicate-key check of large objects.
    hasher: std::collections::hash_map::RandomState,
}

/// An array or object being read.
#[derive(Clone, Copy)]
struct Open {
    /// Byte offset of its bracket.
    at: usize,
    /// True for an object.
    object: bool,
    /// The index of the child being read.
    slot: usize,
    /// For an object: where the key of the member being read starts.
    key_start: usize,
}

impl Parser<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(start + self.offset, end + self.offset)
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The character at the cursor, quoted for a message, or `end of file`.
    fn found(&self) -> String {
        found_at(self.body, self.at)
    }

    /// A syntax error on the character at `at` (empty at the end of the file).
    fn error_at(&self, at: usize, message: impl Into<String>) -> Failed {
        let one = self.body[at..].chars().next().map_or(0, char::len_utf8);
        self.error_over(at, at + one, message)
    }

    /// A syntax error over the bytes `start..end`.
    fn error_over(&self, start: usize, end: usize, message: impl Into<String>) -> Failed {
        Box::new(Finding::new(&SYNTAX, self.span(start, end), "", message))
    }

    /// The error for what stands at the cursor: a comment, or `message`.
    fn comment_or(&self, message: String) -> Failed {
        let rest = &self.text[self.at.min(self.text.len())..];
        let comment = if rest.starts_with(b"//") {
            rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            rest.windows(2)
                .skip(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |p| p + 4)
        } else {
            return self.error_at(self.at, message);
        };
        let f = self.error_over(self.at, self.at + comment, "comment in JSON");
        Box::new(f.with_help("JSON has no comments; put notes in a `description`"))
    }

    /// The error where `,` or the closing bracket was expected: end of file
    /// inside the innermost array or object, a comment, or what stands there.
    fn expected_comma(&self) -> Failed {
        if self.at >= self.text.len() {
            return self.unterminated();
        }
        self.comment_or(format!("expected `,`, found {}", self.found()))
    }

    /// End of file inside the innermost open array or object.
    fn unterminated(&self) -> Failed {
        match self.open.last() {
            Some(&Open {
                at, object: true, ..
            }) => self.error_at(at, "unterminated object: `}` missing"),
            Some(&Open { at, .. }) => self.error_at(at, "unterminated array: `]` missing"),
            None => self.error_at(self.at, format!("unexpected {}", self.found())),
        }
    }

    fn trailing_comma(&self, comma: usize) -> Failed {
        Box::new(
            self.error_at(comma, "trailing comma")
                .with_help("remove the comma: JSON does not allow trailing commas"),
        )
    }

    /// One value at the cursor (whitespace before it already skipped).
    fn value(&mut self, place: Place) -> Result<Node, Failed> {
        let start = self.at;
        let kind = match self.peek() {
            None => return Err(self.unterminated()),
            Some(b'{') => self.object(&place)?,
            Some(b'[') => self.array(&place)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$') => self.word()?,
            Some(b'\'') => {
                let f = self.error_at(start, "single-quoted string");
                return Err(Box::new(f.with_help("use double quotes")));
            }
            Some(b'+') => {
                let f = self.error_at(start, "a number cannot start with `+`");
                return Err(Box::new(f.with_help("remove the `+`")));
            }
            Some(b'.') => {
                let f = self.error_at(start, "a number cannot start with `.`");
                return Err(Box::new(
                    f.with_help("write a digit before the decimal point: `0.5`"),
                ));
            }
            Some(b) => {
                let what = match b {
                    b']' => "unexpected close bracket",
                    b'}' => "unexpected close brace",
                    b',' => "unexpected comma",
                    b':' => "unexpected colon",
                    _ => "unexpected token",
                };
                return Err(self.comment_or(format!("{what}, found {}", self.found())));
            }
        };
        Ok(Node {
            kind,
            span: self.span(start, self.at),
            place,
        })
    }

    /// The JSON pointer of the value being read, spelled out from the open
    /// arrays and objects (only when a finding needs it).
    fn pointer(&mut self) -> String {
        let mut pointer = String::new();
        let open = std::mem::take(&mut self.open);
        let at = self.at;
        for o in &open {
            if o.object {
                self.at = o.key_start;
                let key = self.string().unwrap_or_default();
                pointer = child_pointer(&pointer, &key);
            } else {
                pointer = index_pointer(&pointer, o.slot);
            }
        }
        self.at = at;
        self.open = open;
        pointer
    }

    /// `true`, `false`, `null`; any other word is an error.
    fn word(&mut self) -> Result<Kind, Failed> {
        let start = self.at;
        let len = self.text[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$'))
            .count();
        let kind = match &self.text[start..start + len] {
            b"true" => Kind::Bool(true),
            b"false" => Kind::Bool(false),
            b"null" => Kind::Null,
            word => {
                let word = String::from_utf8_lossy(word);
                let f = self.error_over(start, start + len, format!("unexpected word `{word}`"));
                return Err(Box::new(f.with_help(word_help(&word))));
            }
        };
        self.at += len;
        Ok(kind)
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<Kind, Failed> {
        let start = self.at;
        let digits = |p: &mut Self, after: &str, help: &str| -> Result<(), Failed> {
            let n = p.text[p.at..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if n == 0 {
                let found = p.found();
                let f = p.error_at(p.at, format!("expected a digit {after}, found {found}"));
                return Err(Box::new(f.with_help(help)));
            }
            p.at += n;
            Ok(())
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
            if self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                let end = self.at
                    + self.text[self.at..]
                        .iter()
                        .take_while(|b| b.is_ascii_alphanumeric())
                        .count();
                let literal = &self.body[start..end];
                let f = self.error_over(start, end, format!("invalid number `{literal}`"));
                return Err(Box::new(f.with_help(word_help(&literal[1..]))));
            }
            let help = match self.peek() {
                Some(b'.') => "write a digit before the decimal point: `-0.5`",
                _ => "write the number right after the `-`",
            };
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                digits(self, "after `-`", help)?;
            }
        }
        if self.peek() == Some(b'0') {
            self.at += 1;
            match self.peek() {
                Some(b'0'..=b'9') => {
                    let f =
                        self.error_over(start, self.at + 1, "a number cannot have a leading zero");
                    return Err(Box::new(f.with_help(
                        "remove the leading zero (or quote the value if it is an identifier)",
                    )));
                }
                Some(b'x' | b'X') => {
                    let f = self.error_over(
                        start,
                        self.at + 1,
                        "hexadecimal numbers are not allowed in JSON",
                    );
                    return Err(Box::new(f.with_help("write the number in decimal")));
                }
                _ => {}
            }
        } else {
            digits(self, "", "")?;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            digits(
                self,
                "after the decimal point",
                "JSON numbers need digits after the decimal point: write `2.0` or `2`",
            )?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            digits(
                self,
                "in the exponent",
                "write the exponent's digits: `1e5`, `1e-5`",
            )?;
        }
        if let Some(b) = self.peek()
            && (b.is_ascii_alphanumeric() || b == b'.')
        {
            let end = self.at
                + self.text[self.at..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'))
                    .count();
            let literal = &self.body[start..end];
            return Err(self.error_over(
                self.at,
                end,
                format!("invalid number `{literal}`: unexpected {}", self.found()),
            ));
        }
        let literal = &self.body[start..self.at];
        // Integers that fit take the short way; the rest go through serde_json.
        let integer = if literal == "-0" {
            None // serde_json reads it as the float -0.0
        } else if literal.starts_with('-') {
            literal.parse::<i64>().ok().map(serde_json::Number::from)
        } else {
            literal.parse::<u64>().ok().map(serde_json::Number::from)
        };
        if let Some(n) = integer {
            return Ok(Kind::Number(n));
        }
        Ok(match literal.parse::<serde_json::Number>() {
            Ok(n) => Kind::Number(n),
            Err(_) => {
                let span = self.span(start, self.at);
                let f = Finding::new(
                    &SYNTAX,
                    span,
                    self.pointer(),
                    format!("number `{literal}` is out of range"),
                );
                self.limiter.push(&mut self.findings, f);
                Kind::Null
            }
        })
    }

    /// A string at the cursor (on its opening quote), decoded.
    fn string(&mut self) -> Result<String, Failed> {
        let open = self.at;
        self.at += 1;
        let mut out: Option<String> = None;
        let mut run = self.at;
        loop {
            // The common case: a run of plain characters.
            let plain = self.text[self.at..]
                .iter()
                .take_while(|&&b| b != b'"' && b != b'\\' && b >= 0x20)
                .count();
            self.at += plain;
            match self.peek() {
                None => {
                    return Err(self.error_at(
                        open,
                        format!(
                            "unterminated string literal, found {}",
                            found_at(self.body, open)
                        ),
                    ));
                }
                Some(b'"') => {
                    let tail = &self.body[run..self.at];
                    self.at += 1;
                    return Ok(match out {
                        Some(mut s) => {
                            s.push_str(tail);
                            s
                        }
                        None => tail.to_string(),
                    });
                }
                Some(b'\\') => {
                    let s = out.get_or_insert_with(String::new);
                    s.push_str(&self.body[run..self.at]);
                    let escape = self.at;
                    let c = match self.text.get(escape + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let c = self.unicode_escape(escape)?;
                            s.push(c);
                            run = self.at;
                            continue;
                        }
                        None => {
                            return Err(self.error_at(
                                open,
                                format!(
                                    "unterminated string literal, found {}",
                                    found_at(self.body, open)
                                ),
                            ));
                        }
                        Some(_) => {
                            let end = escape + 1 + found_len(self.body, escape + 1);
                            let f = self.error_over(
                                escape,
                                end,
                                format!("invalid escape `{}`", &self.body[escape..end]),
                            );
                            return Err(Box::new(f.with_help(
                                "the escapes are \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX",
                            )));
                        }
                    };
                    s.push(c);
                    self.at = escape + 2;
                    run = self.at;
                }
                Some(b) => {
                    let name = match b {
                        b'\t' => "a tab",
                        b'\n' => "a line feed",
                        b'\r' => "a carriage return",
                        _ => "a control character",
                    };
                    let escaped = match b {
                        b'\t' => "\\t".to_string(),
                        b'\n' => "\\n".to_string(),
                        b'\r' => "\\r".to_string(),
                        _ => format!("\\u{b:04X}"),
                    };
                    let f = self.error_at(
                        self.at,
                        format!("unescaped control character U+{b:04X} ({name}) in a string"),
                    );
                    return Err(Box::new(f.with_help(format!(
                        "JSON strings cannot hold control characters: write it as `{escaped}`"
                    ))));
                }
            }
        }
    }

    /// `\uXXXX` at `escape` (and its low surrogate when it is a high one).
    fn unicode_escape(&mut self, escape: usize) -> Result<char, Failed> {
        let hex = |p: &Self, at: usize| -> Result<u32, Failed> {
            let digits = p
                .body
                .get(at + 2..at + 6)
                .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
            match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
                Some(v) => Ok(v),
                None => {
                    let hex = p.text[at + 2..]
                        .iter()
                        .take(4)
                        .take_while(|b| b.is_ascii_hexdigit())
                        .count();
                    let end = at + 2 + hex;
                    let found = found_at(p.body, end);
                    let f = p.error_over(
                        at,
                        end,
                        format!(
                            "invalid unicode escape `{}`: expected four hex digits, found {found}",
                            &p.body[at..end]
                        ),
                    );
                    Err(Box::new(f.with_help(
                        "write a unicode escape as `\\u` and four hex digits, such as `\\u00e9`",
                    )))
                }
            }
        };
        let first = hex(self, escape)?;
        self.at = escape + 6;
        let lone = |p: &Self| {
            let f = p.error_over(
                escape,
                escape + 6,
                format!(
                    "invalid unicode escape sequence: `\\u{}` is a lone surrogate",
                    &p.body[escape + 2..escape + 6]
                ),
            );
            Box::new(f.with_help("a surrogate escape must be a high one (D800–DBFF) followed by a low one (DC00–DFFF)"))
        };
        match first {
            0xD800..=0xDBFF => {
                if !self.text[self.at..].starts_with(b"\\u") {
                    return Err(lone(self));
                }
                let second = hex(self, self.at)?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(lone(self));
                }
                self.at += 6;
                let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                char::from_u32(c).ok_or_else(|| lone(self))
            }
            0xDC00..=0xDFFF => Err(lone(self)),
            _ => char::from_u32(first).ok_or_else(|| lone(self)),
        }
    }

    /// Opens an array or object at the cursor.
    fn enter(&mut self, object: bool) {
        self.open.push(Open {
            at: self.at,
            object,
            slot: 0,
            key_start: 0,
        });
        self.at += 1;
    }

    fn array(&mut self, place: &Place) -> Result<Kind, Failed> {
        self.enter(false);
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            self.open.pop();
            return Ok(Kind::Array(Vec::new()));
        }
        let frame = Frame::array(place);
        let first = self.elements.len();
        loop {
            self.skip_ws();
            let slot = self.elements.len() - first;
            if let Some(open) = self.open.last_mut() {
                open.slot = slot;
            }
            let item = self.value(frame.child(slot))?;
            self.elements.push(item);
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    let comma = self.at;
                    self.at += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        return Err(self.trailing_comma(comma));
                    }
                }
                Some(b']') => {
                    self.at += 1;
                    self.open.pop();
                    return Ok(Kind::Array(take_from(&mut self.elements, first)));
                }
                _ => return Err(self.expected_comma()),
            }
        }
    }

    fn object(&mut self, place: &Place) -> Result<Kind, Failed> {
        self.enter(true);
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            self.open.pop();
            return Ok(Kind::Object(Vec::new()));
        }
        let frame = Frame::object(place);
        let first = self.members.len();
        // Small objects are scanned for duplicate keys; larger ones keep a
        // table of each distinct key's first member (9 bytes a key), so that
        // the check stays linear without a second copy of the keys.
        let mut firsts: Option<HashTable<(u32, u32)>> = None;
        loop {
            self.skip_ws();
            let key_start = self.at;
            let key = match self.peek() {
                Some(b'"') => self.string()?,
                Some(b'\'') => {
                    let f = self.error_at(key_start, "single-quoted string");
                    return Err(Box::new(f.with_help("use double quotes")));
                }
                None => return Err(self.unterminated()),
                Some(b) => {
                    let found = self.found();
                    let word = self.text[key_start..]
                        .iter()
                        .take_while(|b| {
                            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-')
                        })
                        .count();
                    if b.is_ascii_alphabetic() || b == b'_' || b == b'$' {
                        let key = &self.body[key_start..key_start + word];
                        let f = self.error_over(
                            key_start,
                            key_start + word,
                            format!("expected a double-quoted key, found `{key}`"),
                        );
                        return Err(Box::new(
                            f.with_help(format!("put the key in double quotes: `\"{key}\"`")),
                        ));
                    }
                    return Err(
                        self.comment_or(format!("expected a double-quoted key, found {found}"))
                    );
                }
            };
            let key_span = self.span(key_start, self.at);
            self.skip_ws();
            if self.peek() != Some(b':') {
                let found = self.found();
                return Err(self.comment_or(format!("expected `:` after the key, found {found}")));
            }
            self.at += 1;
            self.skip_ws();
            if self.at == self.text.len() {
                return Err(self.error_at(self.at, "expected a value after `:`, found end of file"));
            }
            let slot = self.members.len() - first;
            if let Some(open) = self.open.last_mut() {
                open.slot = slot;
                open.key_start = key_start;
            }
            let siblings = &self.members[first..];
            if siblings.len() == SMALL_OBJECT && firsts.is_none() {
                let mut table = HashTable::with_capacity(SMALL_OBJECT * 2);
                for (i, m) in (0u32..).zip(siblings) {
                    first_with(&mut table, siblings, &self.hasher, &m.key, i);
                }
                firsts = Some(table);
            }
            let duplicate = match firsts.as_mut() {
                Some(table) => {
                    let slot = u32::try_from(slot).unwrap_or(u32::MAX);
                    first_with(table, siblings, &self.hasher, &key, slot) != slot
                }
                None => siblings.iter().any(|m| m.key == key),
            };
            if duplicate {
                let f = Finding::new(
                    &DUPLICATE_KEY,
                    key_span,
                    self.pointer(),
                    format!("duplicate key `{key}`"),
                )
                .with_help(
                    "remove one of them: serde_json silently keeps the last value and drops the earlier one",
                );
                self.limiter.push(&mut self.findings, f);
            }
            let value = self.value(frame.child(slot))?;
            self.members.push(Member {
                key,
                key_span,
                value,
            });
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    let comma = self.at;
                    self.at += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        return Err(self.trailing_comma(comma));
                    }
                }
                Some(b'}') => {
                    self.at += 1;
                    self.open.pop();
                    drop(firsts); // before the keys are copied into the frame
                    let members = take_from(&mut self.members, first);
                    frame.set_keys(members.iter().map(|m| m.key.as_str()));
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.expected_comma()),
            }
        }
    }
}

/// The index of the first of `members` with `key`, found in `table` (which
/// holds, per distinct key, 32 bits of its hash and its first member's
/// index); when there is none, `slot` is recorded as the first and returned.
fn first_with(
    table: &mut HashTable<(u32, u32)>,
    members: &[Member],
    hasher: &impl BuildHasher,
    key: &str,
    slot: u32,
) -> u32 {
    // 32 bits of the key's hash, spread back over 64 for the table (which
    // also reads the top bits), so that growing it reads no key again.
    let short = hasher.hash_one(key) as u32;
    let spread = |h: u32| u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let same =
        |&(h, i): &(u32, u32)| h == short && members.get(i as usize).is_some_and(|m| m.key == key);
    match table.entry(spread(short), same, |&(h, _)| spread(h)) {
        hashbrown::hash_table::Entry::Occupied(e) => e.get().1,
        hashbrown::hash_table::Entry::Vacant(e) => {
            e.insert((short, slot));
            slot
        }
    }
}

/// The items of `stack` from `first` on, in an exactly sized `Vec`, without
/// ever holding two copies of the larger part: a container that fills most of
/// the stack (a million-element root array) keeps the stack's allocation, and
/// the stack gets a copy of the few items below it.
fn take_from<T>(stack: &mut Vec<T>, first: usize) -> Vec<T> {
    if first * 2 >= stack.len() {
        return stack.split_off(first);
    }
    let mut items = std::mem::take(stack);
    *stack = items.drain(..first).collect();
    items.shrink_to_fit();
    items
}

/// The help for a word that is not `true`, `false` or `null`.
fn word_help(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    match lower.as_str() {
        "true" | "false" | "null" => format!("JSON's literals are lowercase: write `{lower}`"),
        "nan" | "infinity" | "inf" => {
            "JSON has no NaN or Infinity: use `null` or a string".to_string()
        }
        "none" | "nil" | "undefined" => "JSON's empty value is `null`".to_string(),
        _ if "true".starts_with(&lower)
            || "false".starts_with(&lower)
            || "null".starts_with(&lower) =>
        {
            "the word is cut short: JSON's literals are `true`, `false` and `null`".to_string()
        }
        _ => format!(
            "JSON's words are `true`, `false` and `null`; put text in double quotes: `\"{word}\"`"
        ),
    }
}

/// Length in bytes of the character at `at` (0 at the end).
fn found_len(body: &str, at: usize) -> usize {
    body.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(0, char::len_utf8)
}

/// The character at byte `at` of `body`, quoted for a message, or `end of file`.
fn found_at(body: &str, at: usize) -> String {
    body.get(at..)
        .and_then(|rest| rest.chars().next())
        .map(|c| match c {
            '"' | '\'' => format!("`{c}`"),
            _ => format!("`{}`", c.escape_debug()),
        })
        .unwrap_or_else(|| "end of file".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_over_the_limit_points_at_the_first_bracket_too_deep() {
        let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let parsed = parse(&text);
        assert!(parsed.root.is_none());
        assert_eq!(parsed.findings.len(), 1);
        assert_eq!(parsed.findings[0].rule.id, "input/too-deep");
        assert_eq!(parsed.findings[0].span, Span::new(MAX_DEPTH, MAX_DEPTH + 1));
    }

    #[test]
    fn brackets_inside_strings_do_not_count_as_nesting() {
        let text = format!("{{\"a\": \"{}\\\"{}\"}}", "[".repeat(500), "{".repeat(500));
        let parsed = parse(&text);
        assert!(parsed.findings.is_empty(), "{:?}", parsed.findings);
        assert!(parsed.root.is_some());
    }

    #[test]
    fn nesting_at_the_limit_is_accepted() {
        let text = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&text).findings.is_empty());
    }

    #[test]
    fn a_large_object_reports_each_repeated_key_once_per_repeat() {
        // 10,000 distinct keys (one with an escape), then three of them again
        // and one new key, then a fourth repeat of an escaped key.
        let mut members: Vec<String> = (0..10_000).map(|i| format!("\"k{i}\":{i}")).collect();
        members.push("\"a\\/b\":1".to_string());
        for again in [
            "\"k9999\":0",
            "\"k0\":0",
            "\"new\":0",
            "\"k5000\":1",
            "\"a/b\":2",
        ] {
            members.push(again.to_string());
        }
        let parsed = parse(&format!("{{{}}}", members.join(",")));
        let repeated: Vec<&str> = parsed.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(repeated, ["/k9999", "/k0", "/k5000", "/a~1b"]);
        assert!(
            parsed
                .findings
                .iter()
                .all(|f| f.rule.id == DUPLICATE_KEY.id)
        );
    }

    /// Every node of `node`, depth first.
    fn all<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
        out.push(node);
        match &node.kind {
            Kind::Array(items) => items.iter().for_each(|n| all(n, out)),
            Kind::Object(members) => members.iter().for_each(|m| all(&m.value, out)),
            _ => {}
        }
    }

    #[test]
    fn every_node_knows_its_pointer_and_children_are_in_order() {
        // Escaped keys, a duplicate, small and large containers inside
        // containers of either size (the child stacks are split both ways).
        let big: Vec<String> = (0..40).map(|i| format!("[{i},{{\"k\":{i}}}]")).collect();
        let text = format!(
            r#"{{"a/b": [{{"~x": 1}}], "c": {{"d": [0, [true, null]]}}, "big": [{}], "e": 2, "e": 3, "s\u00e9": {{"n": [[], {{}}, [[1]]]}}}}"#,
            big.join(",")
        );
        let parsed = parse(&text);
        assert_eq!(parsed.findings.len(), 1, "{:?}", parsed.findings);
        assert_eq!(parsed.findings[0].pointer, "/e");
        let root = parsed.root.unwrap();
        let mut nodes = Vec::new();
        all(&root, &mut nodes);
        assert_eq!(nodes.len(), 180);
        for node in nodes {
            let pointer = node.pointer();
            let found = root.at_pointer(&pointer);
            // Duplicate keys resolve to the last member; every other node round-trips.
            if pointer != "/e" {
                assert!(found.is_some_and(|f| std::ptr::eq(f, node)), "{pointer}");
            }
        }
        assert_eq!(
            root.get("a/b").unwrap().as_array().unwrap()[0]
                .get("~x")
                .unwrap()
                .pointer(),
            "/a~1b/0/~0x"
        );
        assert_eq!(root.at_pointer("/big/39/1/k").unwrap().to_value(), 39);
        assert_eq!(
            root.at_pointer("/sé/n/2/0/0").unwrap().pointer(),
            "/sé/n/2/0/0"
        );
    }

    #[test]
    fn a_number_out_of_range_is_reported_at_its_pointer() {
        let parsed = parse(r#"{"a": [1, {"b\/c": 1e999}]}"#);
        assert_eq!(parsed.findings.len(), 1);
        assert_eq!(parsed.findings[0].pointer, "/a/1/b~1c");
        assert_eq!(
            parse("[-0]").root.unwrap().to_value(),
            serde_json::json!([-0.0])
        );
        assert_eq!(
            parse("[-7, 18446744073709551615]").root.unwrap().to_value()[1],
            u64::MAX
        );
    }

    #[test]
    fn a_missing_comma_points_at_the_next_token() {
        let parsed = parse("{\"a\": 1 \"b\": 2}");
        assert_eq!(parsed.findings[0].message, "expected `,`, found `\"`");
        assert_eq!(parsed.findings[0].span.start, 8);
    }
}
