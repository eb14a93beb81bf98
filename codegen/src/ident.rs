//! Rust identifiers from manifest names: PascalCase types, snake_case fields,
//! keywords escaped with a trailing `_`, never an invalid identifier.

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};

/// Strict and reserved keywords of Rust 2024 (raw identifiers are not used).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keeps ASCII letters, digits and `_`; other characters separate words.
fn ascii_words(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect()
}

/// Makes `s` a usable identifier: a leading digit gets `prefix`, keywords a trailing `_`.
fn finish(s: String, prefix: &str, fallback: &str) -> String {
    let s = if s.is_empty() {
        fallback.to_owned()
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{prefix}{s}")
    } else {
        s
    };
    if KEYWORDS.contains(&s.as_str()) || s == "_" {
        format!("{s}_")
    } else {
        s
    }
}

/// A type or variant name: `notesmd_cli_search` → `NotesmdCliSearch`.
///
/// ```
/// use toolsmith_codegen::ident::pascal;
/// assert_eq!(pascal("notesmd_cli_search", "T"), "NotesmdCliSearch");
/// assert_eq!(pascal("get-weather", "T"), "GetWeather");
/// assert_eq!(pascal("1d", "V"), "V1d");
/// assert_eq!(pascal("***", "V0"), "V0");
/// ```
pub fn pascal(name: &str, fallback: &str) -> String {
    finish(ascii_words(name).to_upper_camel_case(), "V", fallback)
}

/// An enum variant for a string value: [`pascal`], except that a sign
/// before a digit at the start of a word is spelled out, so that values
/// such as GitHub's reactions `+1` and `-1` (`reactions-+1`,
/// `reactions--1`) stay distinct.
///
/// ```
/// use toolsmith_codegen::ident::variant;
/// assert_eq!(variant("+1", "V0"), "Plus1");
/// assert_eq!(variant("-1", "V1"), "Minus1");
/// assert_eq!(variant("reactions--1", "V3"), "ReactionsMinus1");
/// assert_eq!(variant("reactions-+1", "V2"), "ReactionsPlus1");
/// assert_eq!(variant("utf-8", "V0"), "Utf8");
/// assert_eq!(variant("created-asc", "V0"), "CreatedAsc");
/// ```
pub fn variant(wire: &str, fallback: &str) -> String {
    let chars: Vec<char> = wire.chars().collect();
    let mut spelled = String::with_capacity(wire.len());
    for (i, &c) in chars.iter().enumerate() {
        let word_start = i == 0 || !chars[i - 1].is_ascii_alphanumeric();
        let before_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        match c {
            '+' if word_start && before_digit => spelled.push_str(" plus "),
            '-' if word_start && before_digit => spelled.push_str(" minus "),
            _ => spelled.push(c),
        }
    }
    pascal(&spelled, fallback)
}

/// A field name: `dryRun` → `dry_run`, `type` → `type_`.
///
/// ```
/// use toolsmith_codegen::ident::snake;
/// assert_eq!(snake("dryRun", "f"), "dry_run");
/// assert_eq!(snake("type", "f"), "type_");
/// assert_eq!(snake("2fa", "f"), "_2fa");
/// assert_eq!(snake("$", "field_0"), "field_0");
/// ```
pub fn snake(name: &str, fallback: &str) -> String {
    finish(ascii_words(name).to_snake_case(), "_", fallback)
}

/// True for a string that [`Ident::new`] accepts and that is not a keyword.
pub fn is_valid(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "_"
        && !KEYWORDS.contains(&s)
}

/// An identifier token. Every name built by this module is valid; anything
/// else becomes `invalid_ident` instead of a panic.
pub fn ident(s: &str) -> Ident {
    if is_valid(s) {
        Ident::new(s, Span::call_site())
    } else {
        Ident::new("invalid_ident", Span::call_site())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_valid_identifiers() {
        for name in [
            "", "_", "-", "type", "Self", "self", "über", "a b", "9", "x--y", "__", "FOO_BAR", "é",
            "crate", "async",
        ] {
            let p = pascal(name, "V0");
            let s = snake(name, "field_0");
            assert!(is_valid(&p), "{name:?} -> {p:?}");
            assert!(is_valid(&s), "{name:?} -> {s:?}");
        }
    }

    #[test]
    fn case_conversion() {
        assert_eq!(snake("ignoreCase", "f"), "ignore_case");
        assert_eq!(snake("line_number", "f"), "line_number");
        assert_eq!(pascal("self", "V"), "Self_");
        assert_eq!(snake("Self", "f"), "self_");
        assert_eq!(ident("a b").to_string(), "invalid_ident");
    }
}
