//! Options of a lint run: what the command line (or the macro) chose.
//!
//! A leaf module: the dialects read these, and the driver ([`crate::lint`](mod@crate::lint))
//! passes them on.

use crate::input::DEFAULT_MAX_SIZE;
use crate::model::ChaiVersion;
use crate::provider::Provider;

/// A skill profile: what a host accepts, or a reference validator's verdict.
/// The rules of each host profile, with their sources, are in
/// [`crate::dialect::skill::hosts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Profile {
    /// Spec violations are errors, unknown vendor fields are warnings.
    #[default]
    Default,
    /// Unknown top-level fields and flow-style YAML are errors (the verdicts of `skills-ref validate`).
    Strict,
    /// Claude Code (`.claude/skills/`, plugins).
    ClaudeCode,
    /// What claude.ai and the Claude API accept on upload.
    ClaudeApi,
    /// OpenAI Codex (`.codex/skills/`, `.agents/skills/`).
    Codex,
    /// GitHub Copilot in VS Code and the Copilot CLI (`.github/skills/`).
    Copilot,
    /// Cursor (`.cursor/`).
    Cursor,
}

impl Profile {
    /// Every profile, in the order `--profile` lists them.
    pub const ALL: [Profile; 7] = [
        Profile::Default,
        Profile::Strict,
        Profile::ClaudeCode,
        Profile::ClaudeApi,
        Profile::Codex,
        Profile::Copilot,
        Profile::Cursor,
    ];

    /// The name on the command line and in JSON (`claude-code`).
    ///
    /// ```
    /// use toolsmith_manifest::Profile;
    /// assert_eq!(Profile::ClaudeCode.name(), "claude-code");
    /// assert_eq!(Profile::from_name("claude-code"), Some(Profile::ClaudeCode));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Profile::Default => "default",
            Profile::Strict => "strict",
            Profile::ClaudeCode => "claude-code",
            Profile::ClaudeApi => "claude-api",
            Profile::Codex => "codex",
            Profile::Copilot => "copilot",
            Profile::Cursor => "cursor",
        }
    }

    /// The profile of a command-line name.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The host as messages name it (`Claude Code`); the profile name for
    /// `default` and `strict`.
    pub fn host(self) -> &'static str {
        match self {
            Profile::Default => "the Agent Skills spec",
            Profile::Strict => "skills-ref",
            Profile::ClaudeCode => "Claude Code",
            Profile::ClaudeApi => "the Claude API upload",
            Profile::Codex => "Codex",
            Profile::Copilot => "GitHub Copilot",
            Profile::Cursor => "Cursor",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of skill profiles (`--profile claude-code,copilot`). The empty set
/// means "found from where each file lives" (no `--profile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Profiles(u8);

impl Profiles {
    /// No profile named: each skill's profile is found from its path.
    pub const DETECT: Profiles = Profiles(0);

    /// Parses a comma-separated list of profile names.
    ///
    /// ```
    /// use toolsmith_manifest::options::{Profile, Profiles};
    /// let p = Profiles::parse("claude-code,copilot").unwrap();
    /// assert_eq!(p.iter().collect::<Vec<_>>(), [Profile::ClaudeCode, Profile::Copilot]);
    /// assert_eq!(p.to_string(), "claude-code,copilot");
    /// assert!(Profiles::parse("lenient").is_err());
    /// ```
    pub fn parse(list: &str) -> Result<Profiles, String> {
        let mut set = Profiles::DETECT;
        for name in list.split(',').map(str::trim) {
            match Profile::from_name(name) {
                Some(p) => set.0 |= p.bit(),
                None => {
                    let known: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
                    return Err(format!(
                        "unknown profile `{name}`; the profiles are {}",
                        known.join(", ")
                    ));
                }
            }
        }
        Ok(set)
    }

    /// True when no profile was named (detection).
    pub fn is_detect(self) -> bool {
        self.0 == 0
    }

    /// True when `profile` is in the set.
    pub fn contains(self, profile: Profile) -> bool {
        self.0 & profile.bit() != 0
    }

    /// The profiles in the set, in [`Profile::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Profile> {
        Profile::ALL.into_iter().filter(move |p| self.contains(*p))
    }

    /// Number of profiles in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when the set is empty (same as [`Profiles::is_detect`]).
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl From<Profile> for Profiles {
    fn from(p: Profile) -> Self {
        Profiles(p.bit())
    }
}

impl std::fmt::Display for Profiles {
    /// `claude-code,copilot`; `detect` for the empty set.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_detect() {
            return f.write_str("detect");
        }
        let names: Vec<&str> = self.iter().map(Profile::name).collect();
        f.write_str(&names.join(","))
    }
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
    /// An MCP tool list (`tools/list` result, JSON-RPC response, array or one tool).
    Mcp,
}

/// Options for a lint run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Force a dialect instead of detecting it.
    pub dialect: Option<DialectChoice>,
    /// Skill profiles (`--profile`); empty: found from each file's path.
    pub profile: Profiles,
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
            profile: Profiles::DETECT,
            max_size: DEFAULT_MAX_SIZE,
            chai_version: None,
            providers: Vec::new(),
        }
    }
}
