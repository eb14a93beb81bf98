//! `allowed-tools`: a space-separated string (the spec), a comma-separated
//! string or a YAML list (Claude Code, older skills), normalized to a token
//! list. Each token is `pattern` or `pattern(…)`; under the JS framework the
//! parenthesized part is `key=value,…,$deny` (toolsmith's grammar: the
//! framework's specification shows such tokens but gives none):
//!
//! ```text
//! token      = pattern [ "(" specifier *( "," specifier ) ")" ]
//! pattern    = 1*( name-char / "*" / "?" )        ; glob over tool names
//! specifier  = key "=" value / "$" word           ; e.g. path=src/**, $deny
//! ```

use super::Ctx;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::source::Span;
use crate::tree::{Kind, Node};

pub static TYPE: Rule = Rule::error(
    "skill/allowed-tools-type",
    "skill",
    "`allowed-tools` is neither a string nor a list of strings",
);
pub static SYNTAX: Rule = Rule::error(
    "skill/allowed-tools-syntax",
    "skill",
    "an `allowed-tools` entry is not `pattern` or `pattern(…)`",
);
pub static SPECIFIER: Rule = Rule::error(
    "skill/allowed-tools-specifier",
    "skill",
    "a JS framework `allowed-tools` specifier is not `key=value` or `$deny`",
);
pub static FORM: Rule = Rule::warning(
    "skill/allowed-tools-form",
    "skill",
    "`allowed-tools` is a YAML list or comma-separated; the spec says a space-separated string (reported under `--profile strict`)",
);
pub static UNMATCHED: Rule = Rule::warning(
    "skill/allowed-tool-unmatched",
    "skill",
    "an `allowed-tools` pattern matches no tool declared in the tools.json of the skill's directory",
);

/// One token with its position (file bytes; the whole value when the
/// value is not verbatim in the file).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    text: String,
    span: Span,
}

/// Checks `allowed-tools` and returns the normalized token list.
pub(crate) fn check(ctx: &mut Ctx<'_>, node: Option<&Node>) -> Vec<String> {
    let Some(node) = node else {
        return Vec::new();
    };
    let mut tokens = Vec::new();
    match &node.kind {
        Kind::Null => {}
        Kind::Array(items) => {
            if ctx.strict() {
                ctx.findings.push(
                    Finding::new(
                        &FORM,
                        node.span,
                        "/allowed-tools",
                        "`allowed-tools` is a YAML list; the spec says a space-separated string",
                    )
                    .with_help("write `allowed-tools: Read Grep Bash(git:*)`"),
                );
            }
            for item in items {
                match ctx.scalar_text(item).map(|t| t.into_owned()) {
                    Some(text) => tokens.extend(tokenize(ctx, item, &text)),
                    None => ctx.findings.push(Finding::new(
                        &TYPE,
                        item.span,
                        item.pointer(),
                        format!(
                            "Field 'allowed-tools' list items must all be strings, found a {}",
                            item.type_name()
                        ),
                    )),
                }
            }
        }
        Kind::Object(_) => ctx.findings.push(
            Finding::new(
                &TYPE,
                node.span,
                "/allowed-tools",
                "Field 'allowed-tools' must be either a string or a list of strings",
            )
            .with_help("write `allowed-tools: Read Grep Bash(git:*)`"),
        ),
        _ => {
            let text = ctx
                .scalar_text(node)
                .map(|t| t.into_owned())
                .unwrap_or_default();
            tokens = tokenize(ctx, node, &text);
        }
    }
    tokens
        .iter()
        .filter(|t| parse_token(ctx, t))
        .map(|t| t.text.clone())
        .collect()
}

/// Splits on whitespace and commas outside parentheses.
fn tokenize(ctx: &mut Ctx<'_>, node: &Node, text: &str) -> Vec<Token> {
    let base = ctx.verbatim_start(node);
    let span_of = |start: usize, end: usize| match base {
        Some(b) => Span::new(b + start, b + end),
        None => node.span,
    };
    let mut tokens = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let mut commas = false;
    for (i, c) in text.char_indices() {
        let separator = depth == 0 && (c.is_whitespace() || c == ',');
        if separator {
            commas |= c == ',';
            if let Some(s) = start.take() {
                tokens.push(Token {
                    text: text[s..i].to_string(),
                    span: span_of(s, i),
                });
            }
            continue;
        }
        start.get_or_insert(i);
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                ctx.findings.push(Finding::new(
                    &SYNTAX,
                    span_of(i, i + 1),
                    node.pointer(),
                    "`)` without a matching `(` in `allowed-tools`",
                ));
            }
            ')' => depth -= 1,
            _ => {}
        }
    }
    if let Some(s) = start {
        if depth > 0 {
            ctx.findings.push(Finding::new(
                &SYNTAX,
                span_of(s, text.len()),
                node.pointer(),
                format!("unclosed `(` in `allowed-tools` entry `{}`", &text[s..]),
            ));
            return tokens;
        }
        tokens.push(Token {
            text: text[s..].to_string(),
            span: span_of(s, text.len()),
        });
    }
    if commas && ctx.strict() {
        ctx.findings.push(
            Finding::new(
                &FORM,
                node.span,
                node.pointer(),
                "`allowed-tools` is comma-separated; the spec says space-separated",
            )
            .with_help("separate the entries with spaces"),
        );
    }
    tokens
}

/// The glob part of a token (before `(`).
fn pattern(token: &str) -> &str {
    token.split('(').next().unwrap_or(token)
}

fn is_pattern_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '*' | '?' | '@' | '/')
}

/// Checks one token's grammar; false when it is unusable.
fn parse_token(ctx: &mut Ctx<'_>, token: &Token) -> bool {
    let text = token.text.as_str();
    let pat = pattern(text);
    let err = |ctx: &mut Ctx<'_>, rule: &'static Rule, message: String| {
        ctx.findings
            .push(Finding::new(rule, token.span, "/allowed-tools", message));
    };
    if pat.is_empty() {
        err(
            ctx,
            &SYNTAX,
            format!("`allowed-tools` entry `{text}` has no tool name before `(`"),
        );
        return false;
    }
    if let Some(bad) = pat.chars().find(|c| !is_pattern_char(*c)) {
        err(
            ctx,
            &SYNTAX,
            format!("`allowed-tools` entry `{text}`: `{bad}` cannot appear in a tool name pattern"),
        );
        return false;
    }
    let Some(rest) = text.get(pat.len()..).filter(|r| !r.is_empty()) else {
        return true;
    };
    let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
        err(
            ctx,
            &SYNTAX,
            format!("`allowed-tools` entry `{text}` has text after its closing `)`"),
        );
        return false;
    };
    if ctx.jsfw {
        for spec in inner.split(',').map(str::trim) {
            let ok = match spec.strip_prefix('$') {
                Some(word) => word == "deny",
                None => spec.split_once('=').is_some_and(|(k, v)| {
                    !v.is_empty()
                        && k.chars()
                            .next()
                            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                        && k.chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                }),
            };
            if !ok {
                err(
                    ctx,
                    &SPECIFIER,
                    format!(
                        "`allowed-tools` entry `{text}`: specifier `{spec}` is neither `key=value` nor `$deny`"
                    ),
                );
            }
        }
    }
    true
}

/// Warns for each pattern that matches none of `tools` (the tools declared by
/// the tools.json next to the skill). Skipped when no tool could be read.
pub(crate) fn cross_check(ctx: &mut Ctx<'_>, root: &Node, tokens: &[String], tools: &[String]) {
    if tools.is_empty() {
        return;
    }
    let Some(node) = root.get("allowed-tools") else {
        return;
    };
    for token in tokens {
        let pat = pattern(token);
        if tools.iter().any(|t| glob_match(pat, t)) {
            continue;
        }
        // Point at the token when it is verbatim in the file.
        let span = ctx
            .text
            .get(node.span.start..node.span.end)
            .and_then(|s| s.find(token.as_str()))
            .map_or(node.span, |at| {
                Span::new(node.span.start + at, node.span.start + at + token.len())
            });
        let mut listed: Vec<&str> = tools.iter().map(String::as_str).take(10).collect();
        if tools.len() > 10 {
            listed.push("…");
        }
        ctx.findings.push(
            Finding::new(
                &UNMATCHED,
                span,
                "/allowed-tools",
                format!(
                    "`allowed-tools` pattern `{pat}` matches no tool declared in the tools.json of this directory ({})",
                    listed.join(", ")
                ),
            )
            .with_help("fix the name, or declare the tool in tools.json"),
        );
    }
}

/// Matches a glob (`*` any run, `?` one character) against a whole name, in
/// O(pattern × name) time.
///
/// ```
/// use toolsmith_manifest::dialect::skill::allowed_tools::glob_match;
/// assert!(glob_match("git_*", "git_status"));
/// assert!(glob_match("?ead", "Read"));
/// assert!(!glob_match("git_*", "gh_pr"));
/// ```
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if c == '?' || c == n[ni] => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}
