//! Go `encoding/json`'s scanner: the syntax error goagent prints for a file
//! that is not JSON (`parse manifest: invalid character …`, `unexpected end
//! of JSON input`), computed by the same state machine as Go's
//! `encoding/json/scanner.go`, byte by byte.
//!
//! toolsmith's own JSON front end words and places its errors differently
//! (and is stricter: lone surrogates, control characters); the agentcli
//! checker shows this text beside its own so that a goagent user recognises
//! the error.

use super::go::quote;

/// Go's `maxNestingDepth`.
const MAX_NESTING_DEPTH: usize = 10_000;

/// The error message Go's `json.Unmarshal` reports for `bytes` when they are
/// not one JSON value, with its byte offset (Go's `SyntaxError.Offset`);
/// `None` when Go's scanner accepts them.
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::scanner::syntax_error;
/// assert_eq!(syntax_error(b"{\"a\": 1,}").unwrap().1,
///            "invalid character '}' looking for beginning of object key string");
/// assert_eq!(syntax_error(b"[1").unwrap().1, "unexpected end of JSON input");
/// assert_eq!(syntax_error("é".as_bytes()).unwrap().1,
///            "invalid character 'Ã' looking for beginning of value");
/// assert_eq!(syntax_error(b"{\"a\": \"\\ud800\"}"), None);
/// ```
pub fn syntax_error(bytes: &[u8]) -> Option<(usize, String)> {
    let mut scanner = Scanner {
        step: Step::BeginValue,
        parse: Vec::new(),
        end_top: false,
    };
    for (i, &c) in bytes.iter().enumerate() {
        if let Err(message) = scanner.eat(c) {
            return Some((i, message));
        }
    }
    if scanner.end_top {
        return None;
    }
    // Go's `eof`: one more space, then "unexpected end" unless that ended it.
    match scanner.eat(b' ') {
        Err(message) => Some((bytes.len(), message)),
        Ok(()) if scanner.end_top => None,
        Ok(()) => Some((bytes.len(), "unexpected end of JSON input".to_string())),
    }
}

/// Go's `parseObjectKey`, `parseObjectValue`, `parseArrayValue`.
#[derive(Clone, Copy, PartialEq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

/// The scanner's `step` functions, one variant each.
#[derive(Clone, Copy)]
enum Step {
    BeginValueOrEmpty,
    BeginValue,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    /// After `\u` and this many hex digits.
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    /// Inside `true`, `false` or `null`: the rest still expected.
    Literal(&'static [u8], &'static str),
}

struct Scanner {
    step: Step,
    parse: Vec<Parse>,
    end_top: bool,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: the byte as a rune, quoted with single quotes.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        _ => {
            let q = quote(&char::from(c).to_string());
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

fn invalid(c: u8, context: &str) -> Result<(), String> {
    Err(format!("invalid character {} {context}", quote_char(c)))
}

impl Scanner {
    fn push(&mut self, p: Parse) -> Result<(), String> {
        self.parse.push(p);
        if self.parse.len() > MAX_NESTING_DEPTH {
            return Err("exceeded max depth".to_string());
        }
        Ok(())
    }

    fn pop(&mut self) {
        self.parse.pop();
        if self.parse.is_empty() {
            self.step = Step::EndTop;
            self.end_top = true;
        } else {
            self.step = Step::EndValue;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), String> {
        match self.step {
            Step::BeginValueOrEmpty => {
                if is_space(c) {
                    return Ok(());
                }
                if c == b']' {
                    return self.end_value(c);
                }
                self.begin_value(c)
            }
            Step::BeginValue => self.begin_value(c),
            Step::BeginStringOrEmpty => {
                if is_space(c) {
                    return Ok(());
                }
                if c == b'}' {
                    if let Some(last) = self.parse.last_mut() {
                        *last = Parse::ObjectValue;
                    }
                    return self.end_value(c);
                }
                self.begin_string(c)
            }
            Step::BeginString => self.begin_string(c),
            Step::EndValue => self.end_value(c),
            Step::EndTop => {
                if !is_space(c) {
                    return invalid(c, "after top-level value");
                }
                Ok(())
            }
            Step::InString => {
                match c {
                    b'"' => self.step = Step::EndValue,
                    b'\\' => self.step = Step::InStringEsc,
                    c if c < 0x20 => return invalid(c, "in string literal"),
                    _ => {}
                }
                Ok(())
            }
            Step::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => {
                    self.step = Step::InString;
                    Ok(())
                }
                b'u' => {
                    self.step = Step::InStringEscU(0);
                    Ok(())
                }
                _ => invalid(c, "in string escape code"),
            },
            Step::InStringEscU(n) => {
                if !c.is_ascii_hexdigit() {
                    return invalid(c, "in \\u hexadecimal character escape");
                }
                self.step = if n == 3 {
                    Step::InString
                } else {
                    Step::InStringEscU(n + 1)
                };
                Ok(())
            }
            Step::Neg => match c {
                b'0' => {
                    self.step = Step::Zero;
                    Ok(())
                }
                b'1'..=b'9' => {
                    self.step = Step::One;
                    Ok(())
                }
                _ => invalid(c, "in numeric literal"),
            },
            Step::One => {
                if c.is_ascii_digit() {
                    return Ok(());
                }
                self.zero(c)
            }
            Step::Zero => self.zero(c),
            Step::Dot => {
                if c.is_ascii_digit() {
                    self.step = Step::Dot0;
                    return Ok(());
                }
                invalid(c, "after decimal point in numeric literal")
            }
            Step::Dot0 => {
                if c.is_ascii_digit() {
                    return Ok(());
                }
                if c == b'e' || c == b'E' {
                    self.step = Step::E;
                    return Ok(());
                }
                self.end_value(c)
            }
            Step::E => {
                if c == b'+' || c == b'-' {
                    self.step = Step::ESign;
                    return Ok(());
                }
                self.e_sign(c)
            }
            Step::ESign => self.e_sign(c),
            Step::E0 => {
                if c.is_ascii_digit() {
                    return Ok(());
                }
                self.end_value(c)
            }
            Step::Literal(rest, name) => {
                if c != rest[0] {
                    let expecting = char::from(rest[0]);
                    return invalid(c, &format!("in literal {name} (expecting '{expecting}')"));
                }
                self.step = if rest.len() == 1 {
                    Step::EndValue
                } else {
                    Step::Literal(&rest[1..], name)
                };
                Ok(())
            }
        }
    }

    fn begin_value(&mut self, c: u8) -> Result<(), String> {
        if is_space(c) {
            return Ok(());
        }
        self.step = match c {
            b'{' => {
                self.push(Parse::ObjectKey)?;
                Step::BeginStringOrEmpty
            }
            b'[' => {
                self.push(Parse::ArrayValue)?;
                Step::BeginValueOrEmpty
            }
            b'"' => Step::InString,
            b'-' => Step::Neg,
            b'0' => Step::Zero,
            b'1'..=b'9' => Step::One,
            b't' => Step::Literal(b"rue", "true"),
            b'f' => Step::Literal(b"alse", "false"),
            b'n' => Step::Literal(b"ull", "null"),
            _ => return invalid(c, "looking for beginning of value"),
        };
        Ok(())
    }

    fn begin_string(&mut self, c: u8) -> Result<(), String> {
        if is_space(c) {
            return Ok(());
        }
        if c == b'"' {
            self.step = Step::InString;
            return Ok(());
        }
        invalid(c, "looking for beginning of object key string")
    }

    fn zero(&mut self, c: u8) -> Result<(), String> {
        match c {
            b'.' => {
                self.step = Step::Dot;
                Ok(())
            }
            b'e' | b'E' => {
                self.step = Step::E;
                Ok(())
            }
            _ => self.end_value(c),
        }
    }

    fn e_sign(&mut self, c: u8) -> Result<(), String> {
        if c.is_ascii_digit() {
            self.step = Step::E0;
            return Ok(());
        }
        invalid(c, "in exponent of numeric literal")
    }

    fn end_value(&mut self, c: u8) -> Result<(), String> {
        let Some(&top) = self.parse.last() else {
            self.step = Step::EndTop;
            self.end_top = true;
            return self.eat(c);
        };
        if is_space(c) {
            self.step = Step::EndValue;
            return Ok(());
        }
        match top {
            Parse::ObjectKey => {
                if c == b':' {
                    if let Some(last) = self.parse.last_mut() {
                        *last = Parse::ObjectValue;
                    }
                    self.step = Step::BeginValue;
                    return Ok(());
                }
                invalid(c, "after object key")
            }
            Parse::ObjectValue => match c {
                b',' => {
                    if let Some(last) = self.parse.last_mut() {
                        *last = Parse::ObjectKey;
                    }
                    self.step = Step::BeginString;
                    Ok(())
                }
                b'}' => {
                    self.pop();
                    Ok(())
                }
                _ => invalid(c, "after object key:value pair"),
            },
            Parse::ArrayValue => match c {
                b',' => {
                    self.step = Step::BeginValue;
                    Ok(())
                }
                b']' => {
                    self.pop();
                    Ok(())
                }
                _ => invalid(c, "after array element"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::syntax_error;

    fn message(text: &[u8]) -> Option<String> {
        syntax_error(text).map(|(_, m)| m)
    }

    /// Texts and messages as Go 1.22's `json.Unmarshal` reports them.
    #[test]
    fn messages_match_go() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "unexpected end of JSON input"),
            (b"  ", "unexpected end of JSON input"),
            (b"x", "invalid character 'x' looking for beginning of value"),
            (b"{\"a\" 1}", "invalid character '1' after object key"),
            (
                b"{\"a\": 1 \"b\": 2}",
                "invalid character '\"' after object key:value pair",
            ),
            (b"[1 2]", "invalid character '2' after array element"),
            (
                b"[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            (
                b"{,}",
                "invalid character ',' looking for beginning of object key string",
            ),
            (b"{} x", "invalid character 'x' after top-level value"),
            (b"[\"a\tb\"]", "invalid character '\\t' in string literal"),
            (b"[\"a\nb\"]", "invalid character '\\n' in string literal"),
            (b"[\"\\x\"]", "invalid character 'x' in string escape code"),
            (
                b"[\"\\u12x4\"]",
                "invalid character 'x' in \\u hexadecimal character escape",
            ),
            (b"[-a]", "invalid character 'a' in numeric literal"),
            (
                b"[1.]",
                "invalid character ']' after decimal point in numeric literal",
            ),
            (
                b"[1e]",
                "invalid character ']' in exponent of numeric literal",
            ),
            (
                b"[tru]",
                "invalid character ']' in literal true (expecting 'e')",
            ),
            (
                b"[nul]",
                "invalid character ']' in literal null (expecting 'l')",
            ),
            (b"[01]", "invalid character '1' after array element"),
            (
                b"'a'",
                "invalid character '\\'' looking for beginning of value",
            ),
            (
                b"\xef\xbb\xbf{}",
                "invalid character '\u{ef}' looking for beginning of value",
            ),
            (
                b"[\0]",
                "invalid character '\\x00' looking for beginning of value",
            ),
            (b"{\"a\":", "unexpected end of JSON input"),
            (b"[1,", "unexpected end of JSON input"),
            (b"\"abc", "unexpected end of JSON input"),
            (b"1", ""),
            (b"{\"a\": [true, false, null, -0.5e+3, \"\\u00e9\"]}", ""),
            (b"[\"\\ud800\"]", ""),
            (b"[\"\x7f\xc2\x85\"]", ""),
        ];
        for (text, expected) in cases {
            let expected = (!expected.is_empty()).then(|| expected.to_string());
            assert_eq!(
                message(text),
                expected,
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn depth_over_go_limit() {
        let text = "[".repeat(10_001);
        assert_eq!(
            message(text.as_bytes()).as_deref(),
            Some("exceeded max depth")
        );
        let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(message(text.as_bytes()), None);
    }
}
