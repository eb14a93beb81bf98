//! Turning a run's findings into what the team asked for: the configs' own
//! findings are added, severities are set (`off` drops a finding), findings
//! covered by a `# toolsmith: allow` comment or an `[[allow]]` entry are
//! dropped, and suppressions that covered nothing become
//! `config/unused-allow` warnings.

use super::Configs;
use crate::error::Error;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use toolsmith_manifest::config::{Level, UNUSED_ALLOW};
use toolsmith_manifest::lint::{FileKind, Input, classify};
use toolsmith_manifest::source::Source;
use toolsmith_manifest::suppress::{self, Suppression};
use toolsmith_manifest::{Diagnostics, Finding, cap};

/// What [`apply`] did besides changing the list.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// Findings dropped by a suppression.
    pub suppressed: usize,
    /// Findings dropped because their rule is `off`.
    pub off: usize,
}

/// The suppression comments of one skill file.
struct FileComments {
    source: Arc<Source>,
    comments: Vec<Suppression>,
    /// (comment, rule) pairs that covered a finding.
    used: HashSet<(usize, usize)>,
}

/// Applies configs and suppressions to `diagnostics` of a run over `inputs`;
/// `skill_sources` holds the text of the skill files the run read (those
/// missing from it are read again).
pub fn apply(
    diagnostics: &mut Diagnostics,
    inputs: &[Input],
    skill_sources: &[Arc<Source>],
    configs: &mut Configs,
    max_size: u64,
) -> Result<Applied, Error> {
    let mut applied = Applied::default();
    let mut all = std::mem::take(&mut diagnostics.0);
    // The suppression comments of every skill file linted.
    let mut comments: BTreeMap<String, FileComments> = BTreeMap::new();
    let sources: BTreeMap<&str, &Arc<Source>> =
        all.iter().map(|d| (d.file.as_str(), &d.source)).collect();
    let read_before: BTreeMap<&str, &Arc<Source>> =
        skill_sources.iter().map(|s| (s.path(), s)).collect();
    let mut problems = Vec::new();
    for input in inputs {
        if classify(&input.path) != Some(FileKind::Skill) {
            continue;
        }
        let source = match sources.get(input.display.as_str()) {
            Some(s) => Arc::clone(s),
            None => match read_before.get(input.display.as_str()) {
                Some(s) if has_marker(s.text().as_bytes()) => Arc::clone(s),
                Some(_) => continue,
                None => match read(&input.path, &input.display, max_size) {
                    Some(s) => s,
                    None => continue,
                },
            },
        };
        let (found, bad) = suppress::comments(&source);
        problems.extend(bad.into_iter().map(|f| f.locate_shared(&source)));
        if !found.is_empty() {
            comments.insert(
                input.display.clone(),
                FileComments {
                    source,
                    comments: found,
                    used: HashSet::new(),
                },
            );
        }
    }
    drop(sources);
    all.extend(problems);
    // The configs' own findings (each config once).
    for input in inputs {
        configs.for_file(Path::new(&input.display))?;
    }
    for config in configs.loaded() {
        all.extend(
            config
                .findings
                .iter()
                .cloned()
                .map(|f| f.locate_shared(&config.source)),
        );
    }
    // Severities, then suppressions.
    let mut used_allow: HashSet<(usize, usize)> = HashSet::new();
    let loaded: Vec<_> = configs.loaded().to_vec();
    let mut kept = Vec::with_capacity(all.len());
    for mut d in all {
        let found = configs.for_file(Path::new(&d.file))?;
        if let Some((config, settings)) = &found {
            // The count of findings left out by the per-rule limit follows
            // the rule it counts: gone when that rule is `off`, at the
            // severity the config gives it; then its own rule's setting.
            if d.rule == cap::TOO_MANY_FINDINGS.id
                && let Some(counted) = cap::summarised_rule(&d.message)
            {
                match config.level(settings, counted, d.severity) {
                    Level::Off => {
                        applied.off += 1;
                        continue;
                    }
                    Level::On(s) => d.severity = s,
                }
            }
            match config.level(settings, d.rule, d.severity) {
                Level::Off => {
                    applied.off += 1;
                    continue;
                }
                Level::On(s) => d.severity = s,
            }
        }
        if d.rule.starts_with("config/") {
            kept.push(d);
            continue;
        }
        if let Some(file) = comments.get_mut(&d.file) {
            let hit = file.comments.iter().enumerate().find_map(|(i, c)| {
                (c.target == d.start.line)
                    .then(|| c.rules.iter().position(|r| r.pattern.matches(d.rule)))
                    .flatten()
                    .map(|j| (i, j))
            });
            if let Some(hit) = hit {
                file.used.insert(hit);
                applied.suppressed += 1;
                continue;
            }
        }
        if let Some((config, _)) = &found {
            let relative = config
                .relative(Path::new(&d.file))
                .unwrap_or_else(|| d.file.clone().into());
            let hit = config
                .allow
                .iter()
                .position(|a| a.covers(&relative, d.rule, &d.pointer));
            if let Some(j) = hit {
                let i = loaded
                    .iter()
                    .position(|c| Arc::ptr_eq(c, config))
                    .unwrap_or(usize::MAX);
                used_allow.insert((i, j));
                applied.suppressed += 1;
                continue;
            }
        }
        kept.push(d);
    }
    // Suppressions that covered nothing.
    let mut unused = Vec::new();
    for (display, file) in &comments {
        for (i, c) in file.comments.iter().enumerate() {
            for (j, r) in c.rules.iter().enumerate() {
                if file.used.contains(&(i, j)) {
                    continue;
                }
                let f = Finding::new(
                    &UNUSED_ALLOW,
                    r.span,
                    "",
                    format!(
                        "`# toolsmith: allow {}` suppresses nothing: line {} has no `{}` finding",
                        r.pattern, c.target, r.pattern
                    ),
                )
                .with_help(
                    "the finding is gone: remove the rule from the comment (or the comment)",
                );
                unused.push((display.clone(), f.locate_shared(&file.source)));
            }
        }
    }
    for (i, config) in loaded.iter().enumerate() {
        for (j, allow) in config.allow.iter().enumerate() {
            if used_allow.contains(&(i, j)) {
                continue;
            }
            // Only entries about a file this run linted (or a file that no
            // longer exists) are known to be unused.
            let linted = inputs.iter().any(|input| {
                config
                    .relative(Path::new(&input.display))
                    .is_some_and(|r| allow.applies_to(&r))
            });
            let literal = !allow.path.value.contains(['*', '?', '[', '{']);
            let gone = literal && !config.dir.join(&allow.path.value).exists();
            if !linted && !gone {
                continue;
            }
            let at = allow
                .pointer
                .as_ref()
                .map(|p| format!(" at `{}`", p.value))
                .unwrap_or_default();
            let message = if gone {
                format!(
                    "this `[[allow]]` entry suppresses nothing: `{}` does not exist",
                    allow.path.value
                )
            } else {
                format!(
                    "this `[[allow]]` entry suppresses nothing: `{}` has no `{}` finding{at}",
                    allow.path.value, allow.rule.value
                )
            };
            let f = Finding::new(&UNUSED_ALLOW, allow.span, format!("/allow/{j}"), message)
                .with_help("the finding is gone: remove the entry");
            unused.push((
                config.source.path().to_string(),
                f.locate_shared(&config.source),
            ));
        }
    }
    for (file, mut d) in unused {
        if let Some((config, settings)) = configs.for_file(Path::new(&file))? {
            match config.level(&settings, d.rule, d.severity) {
                Level::Off => continue,
                Level::On(s) => d.severity = s,
            }
        }
        kept.push(d);
    }
    diagnostics.0 = kept;
    diagnostics.sort();
    Ok(applied)
}

/// Reads a skill file for its comments (`None` when it cannot be read: the
/// lint run reports that).
fn read(path: &Path, display: &str, max_size: u64) -> Option<Arc<Source>> {
    let bytes = toolsmith_manifest::input::read_bounded(path, max_size)
        .ok()?
        .ok()?;
    if !has_marker(&bytes) {
        return None;
    }
    let text = String::from_utf8(bytes).ok()?;
    Some(Arc::new(Source::new(display, text)))
}

/// True when the text holds a suppression comment's marker.
fn has_marker(bytes: &[u8]) -> bool {
    bytes
        .windows(suppress::MARKER.len())
        .any(|w| w == suppress::MARKER.as_bytes())
}
