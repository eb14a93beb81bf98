//! [`Policy`]: what the runtime allows and the limits it applies to every call.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use crate::sandbox::Sandbox;
pub use crate::tool::argv::LeadingDash;

/// The `PATH` every tool sees, and the only directories bare program names are searched in.
pub const FIXED_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Default per-call timeout (a tool's `timeoutSec` overrides it).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest timeout the runtime applies: 7 days. Longer timeouts (a
/// manifest's `timeoutSec`, [`Policy::default_timeout`],
/// [`Policy::helper_timeout`]) are saturated to it before anything is
/// spawned, so that no deadline computation can overflow; `toolsmith run
/// --timeout` refuses larger values.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(7 * 24 * 60 * 60);

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
    /// The path sandbox of chai `readPath`/`writePath`/`workingdir`
    /// parameters: their values must resolve inside these roots (the first is
    /// where relative paths start and the default working directory). Empty:
    /// a tool with path parameters is refused.
    pub sandbox: Sandbox,
    /// Honour chai's `unsafePath` (a parameter that skips every path check).
    /// Off: a call that uses such a parameter is refused.
    pub allow_unsafe_path: bool,
    /// What each call is confined to: filesystem roots, network (for every
    /// tool or per tool), resource limits. `enabled: None` in a bare
    /// `Policy`: off for `Runtime::new`, on for `Runtime::load`; a
    /// generated `policy()` turns it on (see [`crate::confine`]).
    pub confine: crate::confine::Confinement,
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
            sandbox: Sandbox::default(),
            allow_unsafe_path: false,
            confine: crate::confine::Confinement::default(),
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

    /// The policy of a program that uses several manifests: `self` combined
    /// with `other`, so that one [`Runtime`](crate::Runtime) runs the tools
    /// of both.
    ///
    /// ```
    /// mod coreutils { toolsmith::tools!("../fixtures/examples/coreutils-skill/tools.json"); }
    /// mod notes { toolsmith::tools!("../fixtures/examples/notes-skill"); }
    ///
    /// let policy = coreutils::policy().merge(notes::policy());
    /// assert!(policy.allows("ls", Some("-1A"))); // coreutils allows `ls -1A`,
    /// assert!(policy.allows("ls", Some("-1"))); // notes `ls -1`: both are kept
    /// assert!(policy.allows("grep", Some("-rnF"))); // notes only
    /// assert!(!policy.allows("rm", None)); // still default-deny
    /// let runtime = toolsmith::Runtime::new(policy);
    /// # let _ = runtime;
    /// ```
    ///
    /// Exactly:
    ///
    /// * **What may run is the union.** `allowlist`: every binary of either
    ///   policy, with the subcommands of both; `sandbox`: the roots of both,
    ///   `self`'s first (relative paths still start at `self`'s first root);
    ///   `redact`: the values of both; `set_env`: the variables of both, and
    ///   for a name that both set to different values, `self`'s value.
    /// * **Per-tool settings are kept.** A tool's `timeoutSec` and
    ///   `envPassthrough` are part of its generated invocation (or its loaded
    ///   manifest entry), not of the policy: each tool keeps its own, and a
    ///   tool is passed only the environment names its own manifest lists
    ///   (the passthrough of the merged program is the union of the tools').
    /// * **Global settings: the explicit one, and between two explicit ones
    ///   the stricter.** A value equal to [`Policy::default`]'s counts as not
    ///   set, so a setting changed on one side is kept:
    ///   * `default_timeout`, `helper_timeout`, `max_output`, `drain_timeout`:
    ///     when both are set, the smaller;
    ///   * `path`: when both are set and differ, the directories that both
    ///     list, in `self`'s order (fewer places to find programs);
    ///   * `home`: when both name a different directory, `None` (a private
    ///     empty home per call);
    ///   * `leading_dash`: when both name a different marker, `Refuse`;
    ///   * `working_dir`: when both name a different directory, `self`'s
    ///     (neither is stricter);
    ///   * the switches `allow_scripts`, `allow_unsafe_path` (off by
    ///     default) and `kill_group_on_exit` (on by default): the value
    ///     different from the default when either side has it, so a
    ///     permission granted on one side is granted.
    ///
    /// * `confine`: see [`Confinement::merge`](crate::confine::Confinement::merge)
    ///   (confined when either is; per-tool network grants of both).
    ///
    /// Generated `policy()` functions set only the allowlist and turn
    /// confinement on, so merging them gives the union of the allowlists,
    /// confined, with default settings; set the global settings on the
    /// merged policy.
    pub fn merge(mut self, other: Policy) -> Policy {
        let default = Policy::default();
        for (binary, subs) in other.allowlist {
            self.allowlist.entry(binary).or_default().extend(subs);
        }
        self.sandbox = self.sandbox.union(&other.sandbox);
        for value in other.redact {
            if !self.redact.contains(&value) {
                self.redact.push(value);
            }
        }
        for (name, value) in other.set_env {
            self.set_env.entry(name).or_insert(value);
        }
        self.default_timeout = smaller(
            self.default_timeout,
            other.default_timeout,
            default.default_timeout,
        );
        self.helper_timeout = smaller(
            self.helper_timeout,
            other.helper_timeout,
            default.helper_timeout,
        );
        self.max_output = smaller(self.max_output, other.max_output, default.max_output);
        self.drain_timeout = smaller(
            self.drain_timeout,
            other.drain_timeout,
            default.drain_timeout,
        );
        self.path = match (self.path == default.path, other.path == default.path) {
            (_, true) => self.path,
            (true, false) => other.path,
            (false, false) if self.path == other.path => self.path,
            (false, false) => {
                let theirs: BTreeSet<&str> = other.path.split(':').collect();
                let both: Vec<&str> = self
                    .path
                    .split(':')
                    .filter(|d| theirs.contains(d))
                    .collect();
                both.join(":")
            }
        };
        self.home = match (self.home, other.home) {
            (Some(a), Some(b)) => (a == b).then_some(a),
            (a, b) => a.or(b),
        };
        self.leading_dash = match (self.leading_dash, other.leading_dash) {
            (LeadingDash::Refuse, b) => b,
            (a, LeadingDash::Refuse) => a,
            (a, b) if a == b => a,
            _ => LeadingDash::Refuse,
        };
        self.working_dir = self.working_dir.or(other.working_dir);
        self.allow_scripts |= other.allow_scripts;
        self.allow_unsafe_path |= other.allow_unsafe_path;
        self.kill_group_on_exit &= other.kill_group_on_exit;
        self.confine = self.confine.merge(other.confine);
        self
    }
}

/// Of two settings, the one that is not `default`; of two that both are
/// not, the smaller.
fn smaller<T: Ord + Copy>(a: T, b: T, default: T) -> T {
    match (a == default, b == default) {
        (true, _) => b,
        (false, true) => a,
        (false, false) => a.min(b),
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

pub use toolsmith_model::env::{is_denied_env, is_known_harmless_env};

/// The load warning for a tool's passthrough name, if any: a denied name
/// (every call of the tool is refused) or one not known to be harmless.
#[cfg(feature = "load")]
pub(crate) fn passthrough_warning(tool: &str, name: &str) -> Option<String> {
    if is_denied_env(name) {
        Some(format!(
            "tool {tool}: environment variable {name} may not be passed to a tool; its calls are refused"
        ))
    } else if !is_known_harmless_env(name) {
        Some(format!(
            "tool {tool}: passes environment variable {name} through; it is not known to be harmless (check that it cannot change what the tool loads or runs)"
        ))
    } else {
        None
    }
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
            "PERLLIB",
            "PYTHONHOME",
            "GIT_SSH_COMMAND",
            "OPENSSL_CONF",
            "GLIBC_TUNABLES",
            "JAVA_TOOL_OPTIONS",
            "NODE_PATH",
            "RUBYLIB",
            "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_KEY_0",
            "MALLOC_ARENA_MAX",
            "npm_config_script_shell",
        ] {
            assert!(is_denied_env(n), "{n}");
        }
        for n in [
            "TZ",
            "OPENAI_API_KEY",
            "LANG",
            "ENVIRONMENT",
            "GIT_AUTHOR_NAME",
        ] {
            assert!(!is_denied_env(n), "{n}");
        }
        for n in ["LANG", "LC_ALL", "TZ", "TERM"] {
            assert!(is_known_harmless_env(n), "{n}");
        }
        for n in ["OPENAI_API_KEY", "TMPDIR", "lang", "PERLLIB"] {
            assert!(!is_known_harmless_env(n), "{n}");
        }
    }

    #[test]
    fn merge_unions_what_may_run() {
        let dir = std::env::temp_dir();
        let mut a = Policy::default().allow("git", ["status"]);
        a.redact = vec!["s1".into()];
        a.set_env.insert("TZ".into(), "UTC".into());
        a.set_env.insert("LANG".into(), "C".into());
        let mut b = Policy::default()
            .allow("git", ["log"])
            .allow("./tools/bin/x", std::iter::empty::<&str>());
        b.redact = vec!["s1".into(), "s2".into()];
        b.set_env.insert("TZ".into(), "Europe/Oslo".into());
        b.set_env.insert("STUB".into(), "1".into());
        b.sandbox = Sandbox::new([&dir]).unwrap();
        let m = a.merge(b);
        assert!(m.allows("git", Some("status")) && m.allows("git", Some("log")));
        assert!(m.allows("./tools/bin/x", None));
        assert!(!m.allows("git", Some("push")) && !m.allows("rm", None));
        assert_eq!(m.redact, ["s1", "s2"]);
        assert_eq!(m.set_env["TZ"], "UTC", "self's value for a name both set");
        assert_eq!(
            (m.set_env["LANG"].as_str(), m.set_env["STUB"].as_str()),
            ("C", "1")
        );
        assert_eq!(m.sandbox.roots(), [dir.canonicalize().unwrap()]);
    }

    #[test]
    fn merge_keeps_the_explicit_setting_and_the_stricter_of_two() {
        let d = Policy::default();
        let short = Policy {
            default_timeout: Duration::from_secs(5),
            max_output: 10,
            ..Policy::default()
        };
        let long = Policy {
            default_timeout: Duration::from_secs(60),
            helper_timeout: Duration::from_secs(1),
            ..Policy::default()
        };
        // Explicit beats default, whichever side it is on.
        let m = Policy::default().merge(long.clone());
        assert_eq!(m.default_timeout, Duration::from_secs(60));
        assert_eq!(m.helper_timeout, Duration::from_secs(1));
        let m = long.clone().merge(Policy::default());
        assert_eq!(m.default_timeout, Duration::from_secs(60));
        // Two explicit values: the smaller.
        let m = long.merge(short);
        assert_eq!(m.default_timeout, Duration::from_secs(5));
        assert_eq!(m.helper_timeout, Duration::from_secs(1));
        assert_eq!(m.max_output, 10);
        assert_eq!(m.drain_timeout, d.drain_timeout);
        // PATH: explicit kept; two different: the directories both list.
        let p = |path: &str| Policy {
            path: path.into(),
            ..Policy::default()
        };
        assert_eq!(Policy::default().merge(p("/opt/bin")).path, "/opt/bin");
        assert_eq!(
            p("/opt/bin:/usr/bin:/bin").merge(p("/bin:/usr/bin")).path,
            "/usr/bin:/bin"
        );
        // home: two different directories give a private one per call.
        let h = |dir: &str| Policy {
            home: Some(dir.into()),
            ..Policy::default()
        };
        assert_eq!(Policy::default().merge(h("/h")).home, Some("/h".into()));
        assert_eq!(h("/h").merge(h("/h")).home, Some("/h".into()));
        assert_eq!(h("/h").merge(h("/g")).home, None);
        // working_dir: self's when both are set.
        let w = |dir: &str| Policy {
            working_dir: Some(dir.into()),
            ..Policy::default()
        };
        assert_eq!(w("/a").merge(w("/b")).working_dir, Some("/a".into()));
        assert_eq!(
            Policy::default().merge(w("/b")).working_dir,
            Some("/b".into())
        );
        // leading_dash: a marker is kept; two different markers refuse.
        let l = |m: &str| Policy {
            leading_dash: LeadingDash::Marker(m.into()),
            ..Policy::default()
        };
        assert_eq!(
            Policy::default().merge(l("--")).leading_dash,
            LeadingDash::Marker("--".into())
        );
        assert_eq!(
            l("--").merge(l("--end-of-options")).leading_dash,
            LeadingDash::Refuse
        );
        // Switches: the non-default value of either side.
        let s = Policy {
            allow_scripts: true,
            allow_unsafe_path: true,
            kill_group_on_exit: false,
            ..Policy::default()
        };
        let m = Policy::default().merge(s);
        assert!(m.allow_scripts && m.allow_unsafe_path && !m.kill_group_on_exit);
        let m = Policy::default().merge(Policy::default());
        assert!(!m.allow_scripts && !m.allow_unsafe_path && m.kill_group_on_exit);
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
