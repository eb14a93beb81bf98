//! How goagent's Go structs decode a manifest: JSON types (`agentcli/decode`,
//! with Go's exact `json: cannot unmarshal …` message), keys Go ignores
//! (`agentcli/unknown-key`) or matches only case-insensitively
//! (`agentcli/key-case`), and string fields and slices as Go reads them.

use super::checker::Checker;
use super::go::{self, GoType};
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::suggest::closest;
use crate::tree::{Member, Node};

/// `agentcli/decode` (error): a value has a JSON type goagent's Go structs cannot hold (`parse manifest: json: cannot unmarshal …`).
pub static DECODE: Rule = Rule::error(
    "agentcli/decode",
    "agentcli",
    "a value has a JSON type goagent's Go structs cannot hold (`parse manifest: json: cannot unmarshal …`)",
);
/// `agentcli/unknown-key` (warning): a key goagent does not know is silently ignored.
pub static UNKNOWN_KEY: Rule = Rule::warning(
    "agentcli/unknown-key",
    "agentcli",
    "a key goagent does not know is silently ignored",
);
/// `agentcli/key-case` (warning): a key matches a field only case-insensitively (Go accepts it, other readers may not).
pub static KEY_CASE: Rule = Rule::warning(
    "agentcli/key-case",
    "agentcli",
    "a key matches a field only case-insensitively (Go accepts it, other readers may not)",
);

/// The JSON field names of goagent's `ToolSpec`.
pub const TOOL_FIELDS: [&str; 6] = [
    "name",
    "description",
    "schema",
    "command",
    "timeoutSec",
    "envPassthrough",
];

/// One `ToolSpec` field: every member that sets it (Go decodes them all, the last wins).
pub(super) struct Field<'a> {
    pub(super) members: Vec<&'a Member>,
}

impl<'a> Field<'a> {
    pub(super) fn value(&self) -> Option<&'a Node> {
        self.members.last().map(|m| &m.value)
    }
}

/// A string slice as Go decodes it: `null` elements become `""`.
pub(super) struct Strings<'a> {
    /// The array (or `null`) node, when present.
    pub(super) node: Option<&'a Node>,
    /// Element values with their nodes.
    pub(super) items: Vec<(String, &'a Node)>,
    /// False when any member or element had a type error.
    pub(super) ok: bool,
}

impl<'a> Checker<'a> {
    /// Reports a decoding error for `node` into `ty`; true when it fits.
    pub(super) fn decode(&mut self, node: &Node, ty: GoType, field: Option<(&str, &str)>) -> bool {
        match go::type_error(node, self.text, ty, field) {
            Some(message) => {
                self.push(Finding::new(
                    &DECODE,
                    node.span,
                    node.pointer(),
                    format!("parse manifest: {message}"),
                ));
                false
            }
            None => true,
        }
    }

    /// Matches the members of `obj` to Go fields; warns on unknown keys and case mismatches.
    pub(super) fn fields(&mut self, obj: &'a Node, names: &[&str], what: &str) -> Vec<Field<'a>> {
        let mut fields: Vec<Field<'a>> = names.iter().map(|_| Field { members: vec![] }).collect();
        for m in obj.as_object().unwrap_or_default() {
            let pointer = m.value.pointer();
            match names.iter().position(|n| go::key_matches(&m.key, n)) {
                Some(i) => {
                    if m.key != names[i] {
                        self.push(
                            Finding::new(
                                &KEY_CASE,
                                m.key_span,
                                pointer,
                                format!(
                                    "key `{}` is read as `{}`: goagent matches keys case-insensitively, other readers do not",
                                    m.key, names[i]
                                ),
                            )
                            .with_help(format!("spell it `{}`", names[i])),
                        );
                    }
                    if let Some(f) = fields.get_mut(i) {
                        f.members.push(m);
                    }
                }
                None => {
                    let f = Finding::new(
                        &UNKNOWN_KEY,
                        m.key_span,
                        pointer,
                        format!("unknown key `{}` in {what} is ignored by goagent", m.key),
                    );
                    self.push(match closest(&m.key, names.iter().copied()) {
                        Some(s) => f.with_help(format!("did you mean `{s}`?")),
                        None => f.with_help(format!("the known keys are `{}`", names.join("`, `"))),
                    });
                }
            }
        }
        fields
    }

    pub(super) fn string(&mut self, field: &Field<'a>, path: &str) -> (Option<String>, bool) {
        let mut ok = true;
        for m in &field.members {
            ok &= self.decode(&m.value, GoType::String, Some(("ToolSpec", path)));
        }
        let value = field.value().and_then(Node::as_str).map(str::to_string);
        (value, ok)
    }

    pub(super) fn strings(&mut self, field: &Field<'a>, path: &str) -> Strings<'a> {
        let mut ok = true;
        for m in &field.members {
            if !self.decode(&m.value, GoType::StringSlice, Some(("ToolSpec", path))) {
                ok = false;
                continue;
            }
            for item in m.value.as_array().unwrap_or_default() {
                ok &= self.decode(item, GoType::String, Some(("ToolSpec", path)));
            }
        }
        let node = field.value();
        let items = node
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .map(|n| (n.as_str().unwrap_or_default().to_string(), n))
            .collect();
        Strings { node, items, ok }
    }
}
