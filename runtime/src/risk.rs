//! Risk levels, groups and autorun modes: which calls need a confirmation.

use serde::Deserialize;
use std::collections::BTreeMap;

/// How dangerous a tool is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    /// Runs without confirmation (subject to the mode).
    Safe,
    /// Always needs a confirmation.
    Risky,
}

/// Which calls run without a confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Every safe call runs without confirmation.
    #[default]
    AutorunAll,
    /// Safe calls run without confirmation unless their group is `public`.
    AutorunNoPublic,
    /// Every call needs a confirmation.
    AutorunNone,
}

/// The risk level and group of one tool.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolRisk {
    /// The level.
    pub risk: Risk,
    /// The group (`public` matters for [`Mode::AutorunNoPublic`]).
    #[serde(default)]
    pub group: Option<String>,
}

/// Risk levels per tool and the autorun mode. Tools not listed are risky:
/// every tool the runtime knows executes a program.
///
/// The policy file format:
/// `{"mode": "autorun_no_public", "tools": {"get_weather": {"risk": "safe", "group": "public"}}}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiskPolicy {
    /// The mode.
    #[serde(default)]
    pub mode: Mode,
    /// Per-tool levels.
    #[serde(default)]
    pub tools: BTreeMap<String, ToolRisk>,
}

impl RiskPolicy {
    /// Parses a policy file.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Sets the level and group of a tool.
    pub fn set(mut self, tool: &str, risk: Risk, group: Option<&str>) -> Self {
        self.tools.insert(
            tool.to_string(),
            ToolRisk {
                risk,
                group: group.map(str::to_string),
            },
        );
        self
    }

    /// The level of a tool (risky when not listed).
    pub fn risk(&self, tool: &str) -> Risk {
        self.tools.get(tool).map_or(Risk::Risky, |t| t.risk)
    }

    /// Whether a call of `tool` needs the confirmation callback to say yes.
    pub fn needs_confirmation(&self, tool: &str) -> bool {
        let Some(entry) = self.tools.get(tool) else {
            return true;
        };
        match (entry.risk, self.mode) {
            (Risk::Risky, _) | (_, Mode::AutorunNone) => true,
            (Risk::Safe, Mode::AutorunAll) => false,
            (Risk::Safe, Mode::AutorunNoPublic) => entry.group.as_deref() == Some("public"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        let p = RiskPolicy::from_json(
            r#"{"mode":"autorun_no_public","tools":{"a":{"risk":"safe","group":"public"},"b":{"risk":"safe"},"c":{"risk":"risky"}}}"#,
        )
        .unwrap();
        assert!(p.needs_confirmation("a"));
        assert!(!p.needs_confirmation("b"));
        assert!(p.needs_confirmation("c"));
        assert!(p.needs_confirmation("unlisted"));
        let all = RiskPolicy {
            mode: Mode::AutorunAll,
            ..p.clone()
        };
        assert!(!all.needs_confirmation("a"));
        let none = RiskPolicy {
            mode: Mode::AutorunNone,
            ..p
        };
        assert!(none.needs_confirmation("b"));
    }
}
