//! `toolsmith.toml`, from the keys and values [`crate::config`] reads: its
//! key lists, the dialects, providers, profiles, severities and every rule
//! id of the [`crate::registry`]. Unknown keys are refused, as the linter
//! refuses them (`config/unknown-key`).
//!
//! Editors read TOML against a JSON Schema through their TOML extension
//! (Even Better TOML / taplo), which maps the file to JSON first.

use super::{array, described, document, object};
use crate::config::parse::DIALECTS;
use crate::config::{ALLOW_KEYS, KEYS, Level, OVERRIDE_KEYS};
use crate::options::Profile;
use crate::provider::Provider;
use crate::registry;
use serde_json::{Map, Value, json};

pub(super) fn schema() -> Value {
    document(
        "toolsmith.toml",
        "The settings of `toolsmith lint` for this directory and every directory below it: rule severities, excluded paths, per-path overrides and `[[allow]]` suppressions.",
        table(KEYS, &[]),
    )
}

/// The object of one key list.
fn table(keys: &[&str], required: &[&str]) -> Value {
    let mut properties = Map::new();
    for key in keys {
        properties.insert(key.to_string(), described(value(key), description(key)));
    }
    object(properties, required, true)
}

fn value(key: &str) -> Value {
    match key {
        "profile" => json!({
            "type": "string",
            "examples": Profile::ALL.map(Profile::name),
            "pattern": format!("^\\s*({0})\\s*(,\\s*({0})\\s*)*$", Profile::ALL.map(Profile::name).join("|")),
        }),
        "dialect" => json!({"enum": DIALECTS.iter().map(|(n, _)| *n).collect::<Vec<_>>()}),
        "providers" => array(json!({"enum": Provider::ALL.map(Provider::name)})),
        "exclude" | "paths" => array(json!({"type": "string"})),
        "rules" => rules(),
        "overrides" => array(table(OVERRIDE_KEYS, &["paths"])),
        "allow" => array(table(ALLOW_KEYS, &["path", "rule", "reason"])),
        "path" | "pointer" => json!({"type": "string"}),
        "reason" => json!({"type": "string", "minLength": 1}),
        "rule" => json!({"anyOf": [
            {"enum": registry::all().iter().map(|r| r.id).collect::<Vec<_>>()},
            {"type": "string", "pattern": prefix_pattern()},
        ]}),
        _ => json!({}),
    }
}

/// `[rules]`: every rule id (with its explanation for hover), or a `prefix*` pattern.
fn rules() -> Value {
    let level = json!({"enum": Level::NAMES});
    let mut properties = Map::new();
    for rule in registry::all() {
        let text = format!("{} (default: {})", rule.summary, rule.severity);
        properties.insert(rule.id.to_string(), described(level.clone(), Some(&text)));
    }
    let mut out = object(properties, &[], true);
    if let Value::Object(members) = &mut out {
        let mut patterns = Map::new();
        patterns.insert(prefix_pattern(), level);
        members.insert("patternProperties".into(), Value::Object(patterns));
    }
    out
}

/// A `prefix*` pattern: `dialect/…*`, or a bare start of a dialect name (`*`, `sk*`).
fn prefix_pattern() -> String {
    let mut dialects: Vec<&str> = registry::all()
        .iter()
        .filter_map(|r| r.id.split_once('/').map(|(d, _)| d))
        .collect();
    dialects.sort_unstable();
    dialects.dedup();
    format!("^(({})/[a-z0-9-]*|[a-z-]*)\\*$", dialects.join("|"))
}

fn description(key: &str) -> Option<&'static str> {
    Some(match key {
        "profile" => {
            "Skill profile(s) for every SKILL.md, comma-separated (default: found from where it lives)."
        }
        "dialect" => "Read the matching files as this dialect.",
        "providers" => "Check every tool against these providers too.",
        "exclude" => "Files left out (globs below this directory; `**` crosses directories).",
        "rules" => {
            "Rule severities: \"off\" | \"note\" | \"warning\" | \"error\"; `dialect/*` sets a whole dialect."
        }
        "overrides" => {
            "Settings for the files matching `paths`; later entries win over earlier ones and over the top level."
        }
        "allow" => "Accept one finding in a file that has no comments (JSON), with the reason.",
        "paths" => "Globs below the directory of toolsmith.toml.",
        "path" => "The file, relative to the directory of toolsmith.toml.",
        "rule" => "The rule id (or `prefix*`) of the accepted finding.",
        "pointer" => "The JSON pointer of the finding (optional).",
        "reason" => "Why the finding is accepted (required).",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_typed_and_described() {
        for key in KEYS.iter().chain(OVERRIDE_KEYS).chain(ALLOW_KEYS) {
            assert!(description(key).is_some(), "no description: {key}");
            assert_ne!(value(key), json!({}), "no type: {key}");
        }
    }
}
