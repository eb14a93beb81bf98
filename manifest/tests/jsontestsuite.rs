//! Every parsing case of JSONTestSuite (`tests/data/jsontestsuite`, MIT): `y_`
//! cases are accepted, `n_` cases rejected with a positioned error, and each
//! `i_` case is decided as the table below records.

use std::path::{Path, PathBuf};
use toolsmith_manifest::document::Document;
use toolsmith_manifest::input::DEFAULT_MAX_SIZE;
use toolsmith_manifest::json;

/// `y_` cases toolsmith refuses on purpose, and the rule that refuses them
/// (the README's "JSON" differences list them).
const STRICTER: &[(&str, &str)] = &[
    ("y_object_duplicated_key.json", "json/duplicate-key"),
    (
        "y_object_duplicated_key_and_value.json",
        "json/duplicate-key",
    ),
    ("y_string_unescaped_char_delete.json", "input/binary"),
    ("y_string_with_del_character.json", "input/binary"),
];

/// `n_` cases refused by the input checks before the JSON parser sees them,
/// and by which rule. (`every_n_case_is_refused_by_the_parser_alone` checks
/// that the parser refuses the valid-UTF-8 ones by itself too.)
const REFUSED_BY_INPUT: &[(&str, &str)] = &[
    ("n_array_a_invalid_utf8.json", "input/invalid-utf8"),
    ("n_array_invalid_utf8.json", "input/invalid-utf8"),
    ("n_array_spaces_vertical_tab_formfeed.json", "input/binary"),
    ("n_multidigit_number_then_00.json", "input/binary"),
    (
        "n_number_invalid-utf-8-in-bigger-int.json",
        "input/invalid-utf8",
    ),
    (
        "n_number_invalid-utf-8-in-exponent.json",
        "input/invalid-utf8",
    ),
    ("n_number_invalid-utf-8-in-int.json", "input/invalid-utf8"),
    (
        "n_number_real_with_invalid_utf8_after_e.json",
        "input/invalid-utf8",
    ),
    (
        "n_object_lone_continuation_byte_in_key_and_trailing_comma.json",
        "input/invalid-utf8",
    ),
    ("n_single_space.json", "input/empty"),
    ("n_string_backslash_00.json", "input/binary"),
    (
        "n_string_invalid-utf-8-in-escape.json",
        "input/invalid-utf8",
    ),
    (
        "n_string_invalid_utf8_after_escape.json",
        "input/invalid-utf8",
    ),
    ("n_string_unescaped_ctrl_char.json", "input/binary"),
    ("n_structure_100000_opening_arrays.json", "input/too-deep"),
    ("n_structure_incomplete_UTF8_BOM.json", "input/invalid-utf8"),
    ("n_structure_lone-invalid-utf-8.json", "input/invalid-utf8"),
    ("n_structure_no_data.json", "input/empty"),
    ("n_structure_null-byte-outside-string.json", "input/binary"),
    ("n_structure_open_array_object.json", "input/too-deep"),
    ("n_structure_single_eacute.json", "input/invalid-utf8"),
    ("n_structure_whitespace_formfeed.json", "input/binary"),
];

/// Every `i_` case: accepted (`None`) or refused by a rule. The decisions are
/// explained in `tests/data/jsontestsuite/README.md`.
const IMPLEMENTATION_DEFINED: &[(&str, Option<&str>)] = &[
    // Numbers: what fits an f64 (rounded, underflow to 0) is accepted, as
    // serde_json and Go's encoding/json accept it; overflow to infinity is
    // refused, as both refuse it.
    ("i_number_double_huge_neg_exp.json", None),
    ("i_number_huge_exp.json", Some("json/syntax")),
    ("i_number_neg_int_huge_exp.json", Some("json/syntax")),
    ("i_number_pos_double_huge_exp.json", Some("json/syntax")),
    ("i_number_real_neg_overflow.json", Some("json/syntax")),
    ("i_number_real_pos_overflow.json", Some("json/syntax")),
    ("i_number_real_underflow.json", None),
    ("i_number_too_big_neg_int.json", None),
    ("i_number_too_big_pos_int.json", None),
    ("i_number_very_big_negative_int.json", None),
    // Lone or broken surrogate escapes: refused (serde_json refuses them;
    // Go and JavaScript turn them into U+FFFD or keep them).
    ("i_object_key_lone_2nd_surrogate.json", Some("json/syntax")),
    (
        "i_string_1st_surrogate_but_2nd_missing.json",
        Some("json/syntax"),
    ),
    (
        "i_string_1st_valid_surrogate_2nd_invalid.json",
        Some("json/syntax"),
    ),
    (
        "i_string_incomplete_surrogate_and_escape_valid.json",
        Some("json/syntax"),
    ),
    (
        "i_string_incomplete_surrogate_pair.json",
        Some("json/syntax"),
    ),
    (
        "i_string_incomplete_surrogates_escape_valid.json",
        Some("json/syntax"),
    ),
    (
        "i_string_invalid_lonely_surrogate.json",
        Some("json/syntax"),
    ),
    ("i_string_invalid_surrogate.json", Some("json/syntax")),
    (
        "i_string_inverted_surrogates_U+1D11E.json",
        Some("json/syntax"),
    ),
    ("i_string_lone_second_surrogate.json", Some("json/syntax")),
    // Anything that is not UTF-8 (UTF-16, Latin-1, overlong forms, encoded
    // surrogates, truncated sequences): refused before parsing.
    (
        "i_string_UTF-16LE_with_BOM.json",
        Some("input/invalid-utf8"),
    ),
    (
        "i_string_UTF-8_invalid_sequence.json",
        Some("input/invalid-utf8"),
    ),
    (
        "i_string_UTF8_surrogate_U+D800.json",
        Some("input/invalid-utf8"),
    ),
    ("i_string_invalid_utf-8.json", Some("input/invalid-utf8")),
    ("i_string_iso_latin_1.json", Some("input/invalid-utf8")),
    (
        "i_string_lone_utf8_continuation_byte.json",
        Some("input/invalid-utf8"),
    ),
    (
        "i_string_not_in_unicode_range.json",
        Some("input/invalid-utf8"),
    ),
    (
        "i_string_overlong_sequence_2_bytes.json",
        Some("input/invalid-utf8"),
    ),
    (
        "i_string_overlong_sequence_6_bytes.json",
        Some("input/invalid-utf8"),
    ),
    (
        "i_string_overlong_sequence_6_bytes_null.json",
        Some("input/invalid-utf8"),
    ),
    ("i_string_truncated-utf-8.json", Some("input/invalid-utf8")),
    ("i_string_utf16BE_no_BOM.json", Some("input/invalid-utf8")),
    ("i_string_utf16LE_no_BOM.json", Some("input/invalid-utf8")),
    // Nesting deeper than 128 levels (serde_json's limit too).
    ("i_structure_500_nested_arrays.json", Some("input/too-deep")),
    // A BOM: refused, as serde_json and Go refuse it.
    ("i_structure_UTF-8_BOM_empty_object.json", Some("input/bom")),
];

/// The errors of one case (empty when accepted): rule, line, column.
fn errors(path: &Path) -> Vec<(String, usize, usize)> {
    let bytes = std::fs::read(path).expect("read the case");
    let mut doc = Document::from_bytes("case.json", path, &bytes, DEFAULT_MAX_SIZE);
    doc.parse_json();
    doc.diagnostics()
        .into_iter()
        .filter(|d| d.severity == toolsmith_manifest::Severity::Error)
        .map(|d| (d.rule.to_string(), d.start.line, d.start.column))
        .collect()
}

fn cases() -> (PathBuf, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jsontestsuite/test_parsing");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the vendored cases")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (dir, names)
}

#[test]
fn every_jsontestsuite_parsing_case() {
    let (dir, names) = cases();
    assert_eq!(names.len(), 318, "95 y_, 188 n_ and 35 i_ cases");
    let mut problems = Vec::new();
    for name in &names {
        let found = errors(&dir.join(name));
        let first = found.first().map(|(rule, _, _)| rule.as_str());
        let decided = match &name[..2] {
            "y_" => {
                let expected = STRICTER.iter().find(|(n, _)| n == name).map(|(_, r)| *r);
                first == expected
            }
            "n_" => {
                let expected = REFUSED_BY_INPUT
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or("json/syntax", |(_, r)| *r);
                // Refused by that rule, at a position (a BOM before the
                // syntax error adds `input/bom`).
                found
                    .iter()
                    .any(|(rule, line, column)| rule == expected && *line >= 1 && *column >= 1)
            }
            _ => IMPLEMENTATION_DEFINED
                .iter()
                .find(|(n, _)| n == name)
                .is_some_and(|(_, r)| first == *r),
        };
        if !decided {
            problems.push(format!("{name}: {found:?}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} cases:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The JSON parser on its own (without the input checks before it) refuses
/// every `n_` case that is valid UTF-8 with a `json/syntax` finding, or with
/// `input/too-deep` for nesting beyond the limit.
#[test]
fn every_n_case_is_refused_by_the_parser_alone() {
    let (dir, names) = cases();
    let mut problems = Vec::new();
    let mut checked = 0;
    for name in names.iter().filter(|n| n.starts_with("n_")) {
        let bytes = std::fs::read(dir.join(name)).expect("read the case");
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        checked += 1;
        let parsed = json::parse(text);
        let rules: Vec<&str> = parsed.findings.iter().map(|f| f.rule.id).collect();
        let refused = parsed.root.is_none() || rules.contains(&"json/syntax");
        let by = rules.first().copied();
        if !(refused && matches!(by, Some("json/syntax" | "input/too-deep"))) {
            problems.push(format!("{name}: {rules:?}"));
        }
    }
    assert!(checked > 170, "{checked} valid UTF-8 n_ cases");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Go's decoder (and so goagent) refuses a raw tab or line feed inside a
/// string; so does toolsmith, at the character, saying how to escape it.
#[test]
fn raw_tab_and_newline_in_strings_are_refused_at_the_character() {
    for (text, escaped) in [("[\"a\tb\"]", "\\t"), ("[\"a\nb\"]", "\\n")] {
        let parsed = json::parse(text);
        assert!(parsed.root.is_none());
        assert_eq!(parsed.findings.len(), 1);
        let f = &parsed.findings[0];
        assert_eq!((f.rule.id, f.span.start, f.span.end), ("json/syntax", 3, 4));
        assert!(
            f.help.as_deref().is_some_and(|h| h.contains(escaped)),
            "{f:?}"
        );
    }
}
