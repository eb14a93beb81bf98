//! The allowlist (binary → allowed subcommands) and the checks that a
//! binary / subcommand pair is in it, shared by execution specs, resolvers
//! and `subcommandOverride`.

use super::fields::{invalid_type, show};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::suggest::closest;
use crate::tree::Node;
use std::collections::{BTreeMap, HashMap, HashSet};

pub static BINARY_NOT_ALLOWLISTED: Rule = Rule::error(
    "chai/binary-not-allowlisted",
    "chai",
    "an execution spec or resolver runs a binary that is not a key of the allowlist (chai refuses the call)",
);
pub static SUBCOMMAND_NOT_ALLOWLISTED: Rule = Rule::error(
    "chai/subcommand-not-allowlisted",
    "chai",
    "an execution spec or resolver runs a subcommand that is not in the allowlist for its binary (chai refuses the call)",
);

/// The allowlist as read (also from a file with errors, as far as it goes).
#[derive(Debug, Clone, Default)]
pub struct Allowlist {
    /// binary → allowed subcommands (a non-array value counts as an empty list).
    pub entries: BTreeMap<String, Vec<String>>,
    /// The same, for lookups.
    index: HashMap<String, HashSet<String>>,
}

/// Reads an allowlist object, reporting values that are not arrays of strings.
pub fn check(node: &Node, findings: &mut Findings) -> Allowlist {
    let mut allowlist = Allowlist::default();
    for member in node.as_object().unwrap_or_default() {
        let mut subcommands = Vec::new();
        match member.value.as_array() {
            Some(items) => {
                for item in items {
                    match item.as_str() {
                        Some(s) => subcommands.push(s.to_string()),
                        None => findings.push(invalid_type(item, "a string")),
                    }
                }
            }
            None => findings.push(invalid_type(&member.value, "a sequence")),
        }
        allowlist
            .index
            .insert(member.key.clone(), subcommands.iter().cloned().collect());
        allowlist.entries.insert(member.key.clone(), subcommands);
    }
    allowlist
}

impl Allowlist {
    /// Checks that `binary` is a key (and, when given, that `subcommand` is
    /// in its list), with `chai skill validate`'s messages prefixed by `label`.
    /// Values that are not strings are skipped (their type is reported elsewhere).
    pub fn check_pair(
        &self,
        binary: &Node,
        subcommand: Option<&Node>,
        label: &str,
        findings: &mut Findings,
    ) {
        let Some(name) = binary.as_str() else {
            return;
        };
        let Some(allowed) = self.index.get(name) else {
            let finding = Finding::new(
                &BINARY_NOT_ALLOWLISTED,
                binary.span,
                binary.pointer(),
                format!("{label}: binary {} not in allowlist", show(name)),
            );
            let keys = self.entries.keys().map(String::as_str);
            findings.push(match closest(name, keys) {
                Some(s) => finding.with_help(format!("did you mean {}?", show(s))),
                None => finding.with_help(format!(
                    "add {} with its allowed subcommands to the allowlist",
                    show(name)
                )),
            });
            return;
        };
        let Some((sub_node, sub)) = subcommand.and_then(|n| Some((n, n.as_str()?))) else {
            return;
        };
        if allowed.contains(sub) {
            return;
        }
        let finding = Finding::new(
            &SUBCOMMAND_NOT_ALLOWLISTED,
            sub_node.span,
            sub_node.pointer(),
            format!(
                "{label}: subcommand {} not in allowlist[{}]",
                show(sub),
                show(name)
            ),
        );
        let listed = self.entries.get(name).map_or(&[][..], Vec::as_slice);
        findings.push(match closest(sub, listed.iter().map(String::as_str)) {
            Some(s) if !s.is_empty() => finding.with_help(format!("did you mean {}?", show(s))),
            _ => finding.with_help(format!("add {} to allowlist[{}]", show(sub), show(name))),
        });
    }
}
