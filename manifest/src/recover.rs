//! Tolerant reading of text that did not parse: the tool names a broken
//! manifest still shows, so that the code generator can keep a stand-in for
//! each and the user's code does not drown in follow-on errors.

/// The string values of `"name"` keys (ASCII case ignored, as goagent reads
/// keys) at the depths where tool entries live — the root object, the
/// elements of a root array, the elements of a root member's array — in
/// order, without duplicates, keeping only what could be a tool name. Never
/// fails: anything unreadable is skipped.
///
/// ```
/// use toolsmith_manifest::recover::tool_names;
/// let text = r#"{"tools": [{"name": "ls", "parameters": {"properties": {"name": {"type": "string"}}}},
///                           {"name": "grep",, "parameters": {"#;
/// assert_eq!(tool_names(text), ["ls", "grep"]);
/// assert_eq!(tool_names(r#"[{"name": "a b"}, {"NAME": "cat"}"#), ["cat"]);
/// ```
pub fn tool_names(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut names: Vec<String> = Vec::new();
    let mut depth = 0usize;
    let mut key: Option<String> = None;
    let mut after_colon = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let (value, next) = string(text, i);
                i = next;
                let rest = text[i..].trim_start();
                if rest.starts_with(':') {
                    key = Some(value);
                    after_colon = false;
                    continue;
                }
                if after_colon
                    && depth <= 3
                    && key
                        .as_deref()
                        .is_some_and(|k| k.eq_ignore_ascii_case("name"))
                    && is_tool_name(&value)
                    && !names.contains(&value)
                {
                    names.push(value);
                }
                after_colon = false;
                key = None;
                continue;
            }
            b':' => after_colon = key.is_some(),
            b'{' | b'[' => {
                depth += 1;
                after_colon = false;
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => {
                key = None;
                after_colon = false;
            }
            _ => {}
        }
        i += 1;
    }
    names
}

/// The string starting at the quote at `start` (escapes of `"` and `\`
/// undone, others kept) and the offset after its closing quote (or the end
/// of the line when it is not closed).
fn string(text: &str, start: usize) -> (String, usize) {
    let mut out = String::new();
    let mut chars = text[start + 1..].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return (out, start + 1 + i + 1),
            '\n' => return (out, start + 1 + i),
            '\\' => match chars.next() {
                Some((_, e @ ('"' | '\\' | '/'))) => out.push(e),
                Some((_, e)) => {
                    out.push('\\');
                    out.push(e);
                }
                None => break,
            },
            c => out.push(c),
        }
    }
    (out, text.len())
}

/// Letters, digits, `_`, `-` and `.`, 1 to 128 of them.
fn is_tool_name(s: &str) -> bool {
    (1..=128).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}
