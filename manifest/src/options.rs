//! Options of a lint run: what the command line (or the macro) chose.
//!
//! A leaf module: the dialects read these, and the driver ([`crate::lint`](mod@crate::lint))
//! passes them on.

use crate::input::DEFAULT_MAX_SIZE;
use crate::model::ChaiVersion;
use crate::provider::Provider;

/// Skill profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// Spec violations are errors, unknown vendor fields are warnings.
    #[default]
    Default,
    /// Unknown top-level fields and flow-style YAML are errors (the verdicts of `skills-ref validate`).
    Strict,
}

/// A dialect named on the command line (`--dialect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialectChoice {
    /// chai (legacy object or split layout, told apart by the root).
    Chai,
    /// agentcli.
    Agentcli,
    /// `--describe` output.
    Describe,
    /// SKILL.md frontmatter.
    Skill,
}

/// Options for a lint run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Force a dialect instead of detecting it.
    pub dialect: Option<DialectChoice>,
    /// Skill profile.
    pub profile: Profile,
    /// Files over this many bytes are refused.
    pub max_size: u64,
    /// Read chai files as this version instead of detecting it (`--chai-version`).
    pub chai_version: Option<ChaiVersion>,
    /// Check every tool against these providers' rules (`--provider`; none by default).
    pub providers: Vec<Provider>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dialect: None,
            profile: Profile::Default,
            max_size: DEFAULT_MAX_SIZE,
            chai_version: None,
            providers: Vec::new(),
        }
    }
}
