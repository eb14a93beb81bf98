//! [`Policy`]: what the runtime allows and the limits it applies to every call.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

pub use crate::tool::argv::LeadingDash;

/// The `PATH` every tool sees, and the only directories bare program names are searched in.
pub const FIXED_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Default per-call timeout (a tool's `timeoutSec` overrides it).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Default retained output per stream: 1 MiB (head and tail).
pub const DEFAULT_MAX_OUTPUT: usize = 1024 * 1024;

/// The longest the runtime waits for the output pipes once the tool has exited or been killed.
pub const MAX_DRAIN: Duration = Duration::from_secs(2);

/// The allowlist, the limits and the environment of every call.
///
/// Default-deny: a program is run only when its binary (bare name or
/// absolute path) is a key of [`Policy::allowlist`] and, for chai tools, the
/// subcommand is listed under it. Loading a manifest adds its own allowlist
/// (the manifest is reviewed code); the policy can only add entries.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Binary → allowed subcommands (an empty set allows running the binary
    /// without a subcommand only: agentcli and describe tools).
    pub allowlist: BTreeMap<String, BTreeSet<String>>,
    /// Whether `resolveCommand.script` may run scripts from a skill's `scripts/` folder.
    pub allow_scripts: bool,
    /// Timeout of a call whose tool sets none.
    pub default_timeout: Duration,
    /// Timeout of a `--describe` run during discovery and of a `resolveCommand` step.
    pub helper_timeout: Duration,
    /// Retained bytes per stream (head and tail); the rest is counted and dropped.
    pub max_output: usize,
    /// How long to wait for the pipes after the tool exited or was killed (at most [`MAX_DRAIN`]).
    pub drain_timeout: Duration,
    /// The `PATH` given to every tool, also used to resolve bare names.
    pub path: String,
    /// The `HOME` given to every tool. `None` (the default): each call gets a
    /// private, empty directory (mode 0700) under the temp directory, removed
    /// after the call, so that no call can plant dotfiles for another.
    pub home: Option<PathBuf>,
    /// The working directory of every tool (`None`: the runtime's own).
    pub working_dir: Option<PathBuf>,
    /// Treatment of a positional value that begins with `-`.
    pub leading_dash: LeadingDash,
    /// Kill the tool's process group after the tool exits (ends backgrounded children).
    pub kill_group_on_exit: bool,
    /// Values replaced by `[REDACTED]` in the audit log.
    pub redact: Vec<String>,
    /// Variables with fixed values set for every tool (not taken from the
    /// parent), such as `TOOLSMITH_STUB=1`. Denied names are refused.
    pub set_env: BTreeMap<String, String>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            allowlist: BTreeMap::new(),
            allow_scripts: false,
            default_timeout: DEFAULT_TIMEOUT,
            helper_timeout: Duration::from_secs(10),
            max_output: DEFAULT_MAX_OUTPUT,
            drain_timeout: MAX_DRAIN,
            path: FIXED_PATH.to_string(),
            home: None,
            working_dir: None,
            leading_dash: LeadingDash::Refuse,
            kill_group_on_exit: true,
            redact: Vec::new(),
            set_env: BTreeMap::new(),
        }
    }
}

impl Policy {
    /// Allows `binary` with the given subcommands (adds to what is there).
    pub fn allow<I, S>(mut self, binary: &str, subcommands: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.allow_mut(binary, subcommands);
        self
    }

    /// In-place form of [`Policy::allow`].
    pub fn allow_mut<I, S>(&mut self, binary: &str, subcommands: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.allowlist
            .entry(binary.to_string())
            .or_default()
            .extend(subcommands.into_iter().map(Into::into));
    }

    /// Whether `binary` (with `subcommand`, when given) is allowlisted.
    pub fn allows(&self, binary: &str, subcommand: Option<&str>) -> bool {
        match (self.allowlist.get(binary), subcommand) {
            (Some(_), None) => true,
            (Some(subs), Some(sub)) => subs.contains(sub),
            (None, _) => false,
        }
    }

    /// `text` with every non-empty [`Policy::redact`] value replaced by
    /// `[REDACTED]` (longest first, so a secret containing another is hidden whole).
    pub fn redacted(&self, text: &str) -> String {
        redact_text(text, &self.redact)
    }

    /// The drain bound actually used (never above [`MAX_DRAIN`]).
    pub fn drain(&self) -> Duration {
        self.drain_timeout.min(MAX_DRAIN)
    }
}

/// `text` with every non-empty secret replaced by `[REDACTED]`, longest first.
pub(crate) fn redact_text(text: &str, secrets: &[String]) -> String {
    let mut secrets: Vec<&str> = secrets
        .iter()
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .collect();
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.into_iter().fold(text.to_string(), |acc, secret| {
        acc.replace(secret, "[REDACTED]")
    })
}

/// Whether an environment variable name may never be passed through, even
/// when a manifest lists it: names that change how programs load, find
/// other programs or run shell code.
pub fn is_denied_env(name: &str) -> bool {
    const DENIED: &[&str] = &[
        "PATH",
        "HOME",
        "IFS",
        "BASH_ENV",
        "ENV",
        "PROMPT_COMMAND",
        "SHELLOPTS",
        "BASHOPTS",
        "PS4",
        "CDPATH",
        "GLOBIGNORE",
        "PERL5OPT",
        "PERL5LIB",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "NODE_OPTIONS",
        "RUBYOPT",
        "GCONV_PATH",
        "MALLOC_CHECK_",
    ];
    let upper = name.to_ascii_uppercase();
    DENIED.contains(&upper.as_str())
        || upper.starts_with("LD_")
        || upper.starts_with("DYLD_")
        || upper.starts_with("BASH_FUNC_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denied_names() {
        for n in [
            "LD_PRELOAD",
            "ld_audit",
            "DYLD_INSERT_LIBRARIES",
            "PATH",
            "BASH_ENV",
            "ENV",
            "IFS",
        ] {
            assert!(is_denied_env(n), "{n}");
        }
        for n in ["TZ", "OPENAI_API_KEY", "LANG", "ENVIRONMENT"] {
            assert!(!is_denied_env(n), "{n}");
        }
    }

    #[test]
    fn allowlist_checks_subcommands() {
        let p = Policy::default().allow("git", ["status"]);
        assert!(p.allows("git", Some("status")));
        assert!(p.allows("git", None));
        assert!(!p.allows("git", Some("push")));
        assert!(!p.allows("rm", None));
    }
}
