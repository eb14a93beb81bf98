//! `toolsmith.toml`: a team's settings for `toolsmith lint` — rule
//! severities, excluded paths, per-path overrides (profile, dialect,
//! providers, severities) and `[[allow]]` suppressions for files that have
//! no comments.
//!
//! [`parse`] turns the text into a [`Config`] and positioned findings
//! (`config/…` rules) in the TOML file; [`Config::settings`] resolves what
//! applies to one file. Finding the file (walking up from each linted path)
//! is the CLI's job.

pub mod parse;

pub use parse::{ALLOW_KEYS, KEYS, OVERRIDE_KEYS, parse};

use crate::diagnostic::Finding;
use crate::options::{DialectChoice, Profiles};
use crate::provider::Provider;
use crate::rules::{Rule, Severity};
use crate::source::{Source, Span};
use globset::{GlobMatcher, GlobSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file name looked for when walking up from a linted path.
pub const FILE_NAME: &str = "toolsmith.toml";

pub static SYNTAX: Rule = Rule::error(
    "config/syntax",
    "config",
    "toolsmith.toml is not valid TOML (the file is not used)",
);
pub static UNKNOWN_KEY: Rule = Rule::error(
    "config/unknown-key",
    "config",
    "a key toolsmith.toml does not have (a misspelt setting would otherwise be ignored)",
);
pub static UNKNOWN_RULE: Rule = Rule::error(
    "config/unknown-rule",
    "config",
    "a rule id or `prefix/*` pattern (in toolsmith.toml or a suppression comment) that names no rule",
);
pub static INVALID_VALUE: Rule = Rule::error(
    "config/invalid-value",
    "config",
    "a setting of the wrong type or with a value toolsmith does not know (severity, profile, dialect, provider, glob)",
);
pub static MISSING_REASON: Rule = Rule::error(
    "config/missing-reason",
    "config",
    "a suppression (`[[allow]]` or `# toolsmith: allow`) without the reason it is there",
);
pub static UNUSED_ALLOW: Rule = Rule::warning(
    "config/unused-allow",
    "config",
    "a suppression that suppresses nothing (the finding is gone): remove it",
);

/// The config rules.
pub static RULES: &[&Rule] = &[
    &SYNTAX,
    &UNKNOWN_KEY,
    &UNKNOWN_RULE,
    &INVALID_VALUE,
    &MISSING_REASON,
    &UNUSED_ALLOW,
];

/// What a `[rules]` entry sets a rule to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// Not reported.
    Off,
    /// Reported with this severity.
    On(Severity),
}

impl Level {
    /// Parses `off`, `note`, `warning` or `error`.
    ///
    /// ```
    /// use toolsmith_manifest::config::Level;
    /// use toolsmith_manifest::Severity;
    /// assert_eq!(Level::parse("off"), Some(Level::Off));
    /// assert_eq!(Level::parse("warning"), Some(Level::On(Severity::Warning)));
    /// assert_eq!(Level::parse("warn"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Level> {
        Some(match s {
            "off" => Level::Off,
            "note" => Level::On(Severity::Note),
            "warning" => Level::On(Severity::Warning),
            "error" => Level::On(Severity::Error),
            _ => return None,
        })
    }

    /// The names [`Level::parse`] accepts.
    pub const NAMES: [&'static str; 4] = ["off", "note", "warning", "error"];
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Off => f.write_str("off"),
            Level::On(s) => s.fmt(f),
        }
    }
}

/// A rule id, a `prefix*` pattern (`provider/*`, `skill/name-*`) or `*`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulePattern {
    /// One rule.
    Exact(String),
    /// Every rule whose id starts with this (the pattern without its `*`).
    Prefix(String),
}

impl RulePattern {
    /// Reads a pattern: a trailing `*` makes it a prefix.
    pub fn new(text: &str) -> RulePattern {
        match text.strip_suffix('*') {
            Some(prefix) => RulePattern::Prefix(prefix.to_string()),
            None => RulePattern::Exact(text.to_string()),
        }
    }

    /// True when the pattern covers rule `id`.
    pub fn matches(&self, id: &str) -> bool {
        match self {
            RulePattern::Exact(e) => e == id,
            RulePattern::Prefix(p) => id.starts_with(p.as_str()),
        }
    }

    /// How specific the pattern is: an exact id beats any prefix, a longer
    /// prefix beats a shorter one.
    pub fn specificity(&self) -> usize {
        match self {
            RulePattern::Exact(_) => usize::MAX,
            RulePattern::Prefix(p) => p.len(),
        }
    }

    /// True when at least one of `ids` matches.
    pub fn matches_any<'a>(&self, mut ids: impl Iterator<Item = &'a str>) -> bool {
        ids.any(|id| self.matches(id))
    }
}

impl fmt::Display for RulePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulePattern::Exact(e) => f.write_str(e),
            RulePattern::Prefix(p) => write!(f, "{p}*"),
        }
    }
}

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At<T> {
    /// The value.
    pub value: T,
    /// Its byte range in the config file.
    pub span: Span,
}

/// One `[rules]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSetting {
    /// Which rules.
    pub pattern: RulePattern,
    /// What they are set to.
    pub level: Level,
    /// Where the entry is.
    pub span: Span,
}

/// Settings that the top level and each `[[overrides]]` entry can make.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// `profile = "claude-code,copilot"`.
    pub profile: Option<At<Profiles>>,
    /// `dialect = "chai"`.
    pub dialect: Option<At<DialectChoice>>,
    /// `providers = ["openai-strict"]`.
    pub providers: Option<At<Vec<Provider>>>,
    /// `[rules]`.
    pub rules: Vec<RuleSetting>,
}

/// One `[[overrides]]` entry.
#[derive(Debug, Clone)]
pub struct Override {
    /// The `paths` globs as written.
    pub paths: Vec<At<String>>,
    matcher: GlobSet,
    /// What it sets.
    pub scope: Scope,
    /// Where the entry is (its `[[overrides]]` header).
    pub span: Span,
}

/// One `[[allow]]` entry: a finding accepted on purpose.
#[derive(Debug, Clone)]
pub struct Allow {
    /// The file(s), a glob relative to the config's directory.
    pub path: At<String>,
    matcher: GlobMatcher,
    /// The rule (or `prefix*`).
    pub rule: At<RulePattern>,
    /// The JSON pointer of the finding; any finding of the rule in the file when absent.
    pub pointer: Option<At<String>>,
    /// Why the finding is accepted.
    pub reason: String,
    /// Where the entry is.
    pub span: Span,
}

impl Allow {
    /// True when this entry covers a finding of `rule` at `pointer` in the
    /// file at `relative` (below the config's directory).
    pub fn covers(&self, relative: &Path, rule: &str, pointer: &str) -> bool {
        self.applies_to(relative)
            && self.rule.value.matches(rule)
            && self.pointer.as_ref().is_none_or(|p| p.value == pointer)
    }

    /// True when the entry's `path` matches the file at `relative`.
    pub fn applies_to(&self, relative: &Path) -> bool {
        self.matcher.is_match(relative)
    }
}

/// A parsed `toolsmith.toml`.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file's text (findings point into it).
    pub source: Arc<Source>,
    /// The directory the file is in: globs are relative to it.
    pub dir: PathBuf,
    /// Top-level settings.
    pub top: Scope,
    /// `exclude` globs as written.
    pub exclude: Vec<At<String>>,
    exclude_set: GlobSet,
    /// `[[overrides]]`, in file order (later entries win).
    pub overrides: Vec<Override>,
    /// `[[allow]]`.
    pub allow: Vec<Allow>,
    /// Problems with the file itself.
    pub findings: Vec<Finding>,
}

/// What a config says about one file.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The file matches an `exclude` glob.
    pub excluded: bool,
    /// Indices of the `[[overrides]]` entries whose `paths` match, in order.
    pub overrides: Vec<usize>,
    /// The skill profiles, and where they were set.
    pub profile: Option<At<Profiles>>,
    /// The dialect, and where it was set.
    pub dialect: Option<At<DialectChoice>>,
    /// The providers, and where they were set.
    pub providers: Option<At<Vec<Provider>>>,
}

impl Config {
    /// The path of `file` below the config's directory (`None` outside it).
    /// Both are made absolute against the current directory first.
    pub fn relative(&self, file: &Path) -> Option<PathBuf> {
        let file = std::path::absolute(file).ok()?;
        file.strip_prefix(&self.dir).ok().map(Path::to_path_buf)
    }

    /// The settings for the file at `relative` (below [`Config::dir`]).
    pub fn settings(&self, relative: &Path) -> Settings {
        let mut settings = Settings {
            excluded: self.exclude_set.is_match(relative),
            profile: self.top.profile.clone(),
            dialect: self.top.dialect.clone(),
            providers: self.top.providers.clone(),
            overrides: Vec::new(),
        };
        for (i, o) in self.overrides.iter().enumerate() {
            if !o.matcher.is_match(relative) {
                continue;
            }
            settings.overrides.push(i);
            if let Some(p) = &o.scope.profile {
                settings.profile = Some(p.clone());
            }
            if let Some(d) = &o.scope.dialect {
                settings.dialect = Some(d.clone());
            }
            if let Some(p) = &o.scope.providers {
                settings.providers = Some(p.clone());
            }
        }
        settings
    }

    /// The `[rules]` entry that decides `rule` for a file with `settings`:
    /// in each layer (the top level, then each matching override in order)
    /// the most specific pattern; a later layer that names the rule wins.
    /// `None`: the rule keeps its default severity.
    pub fn rule_setting(&self, settings: &Settings, rule: &str) -> Option<&RuleSetting> {
        let layers = std::iter::once(&self.top).chain(
            settings
                .overrides
                .iter()
                .filter_map(|&i| self.overrides.get(i).map(|o| &o.scope)),
        );
        let mut decided = None;
        for scope in layers {
            let best = scope
                .rules
                .iter()
                .filter(|r| r.pattern.matches(rule))
                .max_by_key(|r| r.pattern.specificity());
            if best.is_some() {
                decided = best;
            }
        }
        decided
    }

    /// The severity of `rule` (default `default`) for a file with `settings`.
    pub fn level(&self, settings: &Settings, rule: &str, default: Severity) -> Level {
        self.rule_setting(settings, rule)
            .map_or(Level::On(default), |r| r.level)
    }

    /// The 1-based line of a byte offset in the config file.
    pub fn line_of(&self, span: Span) -> usize {
        self.source.position(span.start).line
    }
}

/// The closest rule id to `word` among `ids`, for did-you-mean: the ids
/// that share `word`'s prefix (up to `/`) first, then all of them.
pub fn closest_rule<'a>(word: &str, ids: &[&'a str]) -> Option<&'a str> {
    let prefix = word.split_once('/').map(|(p, _)| p);
    let same: Vec<&'a str> = ids
        .iter()
        .copied()
        .filter(|id| prefix.is_some_and(|p| id.split_once('/').is_some_and(|(q, _)| q == p)))
        .collect();
    crate::suggest::closest(word, same.iter().copied()).or_else(|| {
        // Across dialects: the closest by edit distance, bounded as `closest` is.
        if word.len() > 64 {
            return None;
        }
        let limit = (word.chars().count() / 3).clamp(1, 3);
        ids.iter()
            .map(|id| (strsim::osa_distance(word, id), *id))
            .filter(|(d, id)| *d <= limit && *id != word)
            .min_by_key(|(d, _)| *d)
            .map(|(_, id)| id)
    })
}
