//! A skill file from arbitrary bytes: input checks, frontmatter split, YAML
//! front end and the skill rules (both profiles, both file kinds) never
//! panic, and every finding stays inside the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use toolsmith_manifest::Document;
use toolsmith_manifest::dialect::skill;
use toolsmith_manifest::input::DEFAULT_MAX_SIZE;
use toolsmith_manifest::lint::{Options, Profile};

fuzz_target!(|data: &[u8]| {
    let tools = ["git_status".to_string(), "read_file".to_string()];
    for (path, profile) in [
        ("fuzz/pdf-tools/SKILL.md", Profile::Default),
        ("fuzz/pdf-tools/SKILL.md", Profile::Strict),
        ("fuzz/one.skill.md", Profile::Default),
    ] {
        let mut doc = Document::from_bytes(path, Path::new(path), data, DEFAULT_MAX_SIZE);
        let options = Options {
            profile: profile.into(),
            ..Options::default()
        };
        let _ = skill::check(&mut doc, &options, Some(&tools));
        let len = doc.source.text().len();
        for f in &doc.findings {
            assert!(f.span.start <= f.span.end && f.span.end <= len, "{f:?}");
        }
        let _ = doc.diagnostics();
    }
});
