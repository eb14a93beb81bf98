//! Whole-file lint of Agent Skills files through `toolsmith_manifest::lint`
//! (the entry `toolsmith lint` uses): `SKILL.md` (default and strict
//! profile, detected or forced), `skill.md`, `*.skill.md`, and a `SKILL.md`
//! beside a chai `tools.json` (the chai reading of a skill, with the tool
//! names as siblings).
//!
//! The first byte chooses the case (its top bit the strict profile).
//! Invariants: `check_diagnostics` on the report.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsmith_fuzz::{lint_checked, scratch, write_files};
use toolsmith_manifest::lint::{DialectChoice, Input, Options, Profile};

const CHAI_TOOLS: &[u8] = include_bytes!("../../fixtures/examples/coreutils-skill/tools.json");
const NAMES: &[&str] = &["SKILL.md", "skill.md", "one.skill.md", "tools.json"];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let case = selector % 6;
    let dir = scratch("lint_skill").join(format!("case{case}"));
    let mut options = Options::default();
    if selector & 0x80 != 0 {
        options.profile = Profile::Strict.into();
    }
    let (name, with_tools) = match case {
        0 => ("SKILL.md", false),
        1 => ("skill.md", false),
        2 => ("one.skill.md", false),
        3 => {
            options.dialect = Some(DialectChoice::Skill);
            ("SKILL.md", false)
        }
        _ => ("SKILL.md", true),
    };
    let mut files: Vec<(&str, &[u8])> = vec![(name, body)];
    if with_tools {
        files.push(("tools.json", CHAI_TOOLS));
    }
    write_files(&dir, NAMES, &files);
    let mut inputs = vec![Input::new(dir.join(name))];
    if with_tools && case == 5 {
        inputs.push(Input::new(dir.join("tools.json")));
    }
    lint_checked(&inputs, &options, &dir);
});
