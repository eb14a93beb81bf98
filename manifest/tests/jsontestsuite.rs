//! Every parsing case of JSONTestSuite (`tests/data/jsontestsuite`, MIT): `y_`
//! cases are accepted, `n_` cases rejected with a positioned error, and each
//! `i_` case is decided as the table below records.

use std::path::Path;
use toolsmith_manifest::document::Document;
use toolsmith_manifest::input::DEFAULT_MAX_SIZE;

/// `y_` cases toolsmith refuses on purpose, and the rule that refuses them.
const STRICTER: &[(&str, &str)] = &[];

/// `n_` cases refused before the JSON parser sees them, and by which rule.
const REFUSED_BY_INPUT: &[(&str, &str)] = &[];

/// Every `i_` case: accepted (`None`) or refused by a rule.
const IMPLEMENTATION_DEFINED: &[(&str, Option<&str>)] = &[];

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

#[test]
fn every_jsontestsuite_parsing_case() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jsontestsuite/test_parsing");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the vendored cases")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 318, "95 y_, 188 n_ and 35 i_ cases");
    let mut problems = Vec::new();
    for name in &names {
        let started = std::time::Instant::now();
        let found = errors(&dir.join(name));
        assert!(
            started.elapsed().as_secs() < 5,
            "{name} took {:?}",
            started.elapsed()
        );
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
                found.len() == 1 && first == Some(expected) && found[0].1 >= 1 && found[0].2 >= 1
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
