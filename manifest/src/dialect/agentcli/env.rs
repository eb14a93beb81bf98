//! `envPassthrough`: goagent's normalization (trim, upper-case, validate:
//! `agentcli/env-empty`, `agentcli/env-invalid`, and `agentcli/env-duplicate`
//! for entries it silently drops) and the runtime's environment policy
//! (`toolsmith_model::env`, the one list both use): names that change which
//! code a program loads or runs, which toolsmith's runtime never passes to a
//! tool although goagent accepts them (`agentcli/env-denied`; the runtime's
//! environment is described in docs/runtime.md), and names that are not
//! known to be harmless, which the runtime passes with a load warning
//! (`agentcli/env-risky`).

use super::checker::Checker;
use super::fields::Strings;
use super::go::quote;
use crate::diagnostic::Finding;
use crate::rules::Rule;

/// `agentcli/env-empty` (error): an `envPassthrough` entry is empty after trimming.
pub static ENV_EMPTY: Rule = Rule::error(
    "agentcli/env-empty",
    "agentcli",
    "an `envPassthrough` entry is empty after trimming",
);
/// `agentcli/env-invalid` (error): an `envPassthrough` entry is not an environment variable name (`[A-Z_][A-Z0-9_]*` after upper-casing).
pub static ENV_INVALID: Rule = Rule::error(
    "agentcli/env-invalid",
    "agentcli",
    "an `envPassthrough` entry is not an environment variable name (`[A-Z_][A-Z0-9_]*` after upper-casing)",
);
/// `agentcli/env-duplicate` (warning): an `envPassthrough` entry repeats an earlier one after normalization.
pub static ENV_DUPLICATE: Rule = Rule::warning(
    "agentcli/env-duplicate",
    "agentcli",
    "an `envPassthrough` entry repeats an earlier one after normalization",
);
/// `agentcli/env-denied` (error): `envPassthrough` names a variable toolsmith never passes to a tool (PATH, IFS, LD_*, PERL5LIB, PYTHONPATH, GIT_SSH_COMMAND, …: the runtime's deny list).
pub static ENV_DENIED: Rule = Rule::error(
    "agentcli/env-denied",
    "agentcli",
    "`envPassthrough` names a variable toolsmith never passes to a tool (PATH, IFS, LD_*, PERL5LIB, PYTHONPATH, GIT_SSH_COMMAND, …: the runtime's deny list)",
);
/// `agentcli/env-risky` (warning): `envPassthrough` names a variable that is not known to be harmless; the runtime passes it with a load warning.
pub static ENV_RISKY: Rule = Rule::warning(
    "agentcli/env-risky",
    "agentcli",
    "`envPassthrough` names a variable that is not known to be harmless; the runtime passes it with a load warning",
);

/// Why an `envPassthrough` entry is refused by goagent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvNameError {
    /// Rule 4a: empty after trimming whitespace.
    Empty,
    /// Rule 4b: the trimmed, upper-cased name is not `[A-Z_][A-Z0-9_]*`.
    Invalid,
}

/// Normalizes one entry as goagent does: trim whitespace, upper-case
/// (Go's simple per-character mapping), then require `^[A-Z_][A-Z0-9_]*$`.
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::env::{normalize_name, EnvNameError};
/// assert_eq!(normalize_name(" Path "), Ok("PATH".to_string()));
/// assert_eq!(normalize_name("OAI-API-KEY"), Err(EnvNameError::Invalid));
/// assert_eq!(normalize_name("  "), Err(EnvNameError::Empty));
/// ```
pub fn normalize_name(entry: &str) -> Result<String, EnvNameError> {
    let trimmed = entry.trim();
    if trimmed.is_empty() {
        return Err(EnvNameError::Empty);
    }
    // Go's strings.ToUpper maps each rune alone (no `ß` → `SS`).
    let upper: String = trimmed
        .chars()
        .map(|c| {
            let mut up = c.to_uppercase();
            match (up.next(), up.next()) {
                (Some(u), None) => u,
                _ => c,
            }
        })
        .collect();
    let mut chars = upper.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if valid {
        Ok(upper)
    } else {
        Err(EnvNameError::Invalid)
    }
}

/// Normalizes a whole list: valid names de-duplicated keeping the first
/// occurrence, plus the refused entries with their index.
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::env::normalize;
/// let (names, errors) = normalize(&["oai_api_key", "OAI_API_KEY", " Path ", "TZ"]);
/// assert_eq!(names, ["OAI_API_KEY", "PATH", "TZ"]);
/// assert!(errors.is_empty());
/// ```
pub fn normalize(entries: &[&str]) -> (Vec<String>, Vec<(usize, EnvNameError)>) {
    let mut names: Vec<String> = Vec::new();
    let mut errors = Vec::new();
    for (j, entry) in entries.iter().enumerate() {
        match normalize_name(entry) {
            Ok(name) if !names.contains(&name) => names.push(name),
            Ok(_) => {}
            Err(e) => errors.push((j, e)),
        }
    }
    (names, errors)
}

/// How toolsmith treats a (normalized) name that goagent accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Danger {
    /// Never passed through by toolsmith's runtime: it changes which code a
    /// program loads or runs (`PATH`, `IFS`, `LD_*`, `PERL5LIB`, …).
    Denied,
    /// Not known to be harmless: passed through with a load warning.
    Risky,
}

/// Whether a normalized name is on the runtime's deny list, or not known to
/// be harmless (`toolsmith_model::env`).
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::env::{danger, Danger};
/// assert_eq!(danger("LD_PRELOAD"), Some(Danger::Denied));
/// assert_eq!(danger("PERLLIB"), Some(Danger::Denied));
/// assert_eq!(danger("OAI_API_KEY"), Some(Danger::Risky));
/// assert_eq!(danger("TZ"), None);
/// ```
pub fn danger(name: &str) -> Option<Danger> {
    if toolsmith_model::env::is_denied_env(name) {
        Some(Danger::Denied)
    } else if toolsmith_model::env::is_known_harmless_env(name) {
        None
    } else {
        Some(Danger::Risky)
    }
}

impl<'a> Checker<'a> {
    /// Rules 4a/4b and toolsmith's deny list; returns the normalized names.
    pub(super) fn env(&mut self, prefix: &str, env: &Strings<'a>) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for (j, (entry, node)) in env.items.iter().enumerate() {
            if node.as_str().is_none() && !node.is_null() {
                continue; // a decoding error already
            }
            let name = match normalize_name(entry) {
                Ok(name) => name,
                Err(EnvNameError::Empty) => {
                    self.push(
                        Finding::new(
                            &ENV_EMPTY,
                            node.span,
                            node.pointer(),
                            format!("{prefix}: envPassthrough[{j}]: empty name"),
                        )
                        .with_help("remove the empty entry"),
                    );
                    continue;
                }
                Err(EnvNameError::Invalid) => {
                    self.push(
                        Finding::new(
                            &ENV_INVALID,
                            node.span,
                            node.pointer(),
                            format!(
                                "{prefix}: envPassthrough[{j}]: invalid name {} (must match [A-Z_][A-Z0-9_]*)",
                                quote(entry)
                            ),
                        )
                        .with_help("environment variable names are letters, digits and `_`, not starting with a digit"),
                    );
                    continue;
                }
            };
            if names.contains(&name) {
                self.push(Finding::new(
                    &ENV_DUPLICATE,
                    node.span,
                    node.pointer(),
                    format!("{prefix}: envPassthrough[{j}]: {} repeats `{name}` (names are trimmed and upper-cased)", quote(entry)),
                ).with_help("remove the duplicate"));
                continue;
            }
            match danger(&name) {
                Some(Danger::Denied) => self.push(
                    Finding::new(
                        &ENV_DENIED,
                        node.span,
                        node.pointer(),
                        format!("{prefix}: envPassthrough[{j}]: `{name}` is never passed to a tool: it changes which program runs or what it loads"),
                    )
                    .with_help("toolsmith's runtime refuses every call of a tool that passes it (its deny list is in docs/runtime.md); remove the entry"),
                ),
                Some(Danger::Risky) => self.push(Finding::new(
                    &ENV_RISKY,
                    node.span,
                    node.pointer(),
                    format!("{prefix}: envPassthrough[{j}]: `{name}` is not known to be harmless"),
                ).with_help("the runtime passes it with a warning; check that it only carries data (a key, a token) and cannot change what the tool loads or runs")),
                None => {}
            }
            names.push(name);
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_test_vector() {
        let (names, errors) = normalize(&["oai_api_key", "OAI_API_KEY", " Path ", "TZ"]);
        assert_eq!(names, vec!["OAI_API_KEY", "PATH", "TZ"]);
        assert!(errors.is_empty());
    }

    #[test]
    fn refused_entries_keep_their_index() {
        let (names, errors) = normalize(&["OAI-API-KEY", "1BAD", " ", "ok_1", "\t"]);
        assert_eq!(names, vec!["OK_1"]);
        assert_eq!(
            errors,
            vec![
                (0, EnvNameError::Invalid),
                (1, EnvNameError::Invalid),
                (2, EnvNameError::Empty),
                (4, EnvNameError::Empty),
            ]
        );
    }

    #[test]
    fn upper_casing_is_per_character_like_go() {
        // Rust's full mapping would turn `ß` into `SS`; Go keeps it (invalid).
        assert_eq!(normalize_name("straße"), Err(EnvNameError::Invalid));
        // dotless i and long s upper-case to ASCII in Go too.
        assert_eq!(normalize_name("ıſ"), Ok("IS".to_string()));
        assert_eq!(normalize_name("_A1"), Ok("_A1".to_string()));
        assert_eq!(normalize_name("A B"), Err(EnvNameError::Invalid));
    }
}
