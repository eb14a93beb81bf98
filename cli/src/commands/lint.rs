//! `toolsmith lint [PATH]...`: find manifests, run the rules, render the findings.

use crate::error::{Error, Status};
use crate::output;
use crate::render::{self, Format};
use crate::walk;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolsmith_manifest::Diagnostics;
use toolsmith_manifest::lint::{self, DialectChoice, Input, Options};
use toolsmith_manifest::model::ChaiVersion;
use toolsmith_manifest::options::Profiles;
use toolsmith_manifest::provider::{Provider, UnknownProvider};
use toolsmith_manifest::source::Source;

/// Arguments of `toolsmith lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or directories to lint (directories are walked, honouring .gitignore).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit with status 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Lint every file as this dialect instead of detecting it.
    #[arg(long, value_enum, value_name = "NAME")]
    pub dialect: Option<DialectArg>,
    /// Skill profiles, comma-separated: `default`, `strict` (the verdict of
    /// skills-ref), or the hosts `claude-code`, `claude-api`, `codex`,
    /// `copilot`, `cursor` (a finding when any of them refuses the file).
    /// Without it each SKILL.md's profile is found from where it lives
    /// (`.claude/skills/`, a Claude Code plugin, `.codex/skills/`,
    /// `.agents/skills/`, `.github/skills/`, `.cursor/`; else `default`).
    #[arg(long, value_name = "NAME[,NAME…]", value_parser = Profiles::parse)]
    pub profile: Option<Profiles>,
    /// Leave out files matching GLOB (repeatable; matched against the path
    /// below the walked directory and the printed path). A skill file that
    /// starts with frontmatter is still linted; the others are counted as
    /// skipped in the summary.
    #[arg(long, value_name = "GLOB", value_parser = walk::parse_glob)]
    pub exclude: Vec<globset::Glob>,
    /// Read chai files as this version instead of detecting it (a three-file
    /// layout, or a single file using a v0.5 key or kind, is v0.5).
    #[arg(long, value_enum, value_name = "VERSION")]
    pub chai_version: Option<ChaiVersionArg>,
    /// Refuse files larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = toolsmith_manifest::input::DEFAULT_MAX_SIZE)]
    pub max_size: u64,
    /// Also check that these providers accept every tool (repeatable or
    /// comma-separated): openai, openai-strict, anthropic, anthropic-strict,
    /// gemini, ollama, mcp.
    #[arg(long, value_name = "NAME", value_delimiter = ',', value_parser = parse_provider)]
    pub provider: Vec<Provider>,
    #[command(flatten)]
    pub config: crate::config::ConfigArgs,
    /// Report only the findings that are not recorded in this baseline file
    /// (written by `--write-baseline`), and say how many were matched.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in FILE (by file, rule and JSON pointer or
    /// line text) instead of reporting them; exits 0.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,
    /// Apply the fixes of mechanical findings (each file rewritten
    /// atomically), then report what is left.
    #[arg(long, conflicts_with = "write_baseline")]
    pub fix: bool,
    /// With `--fix`: print the fixes as a unified diff instead of writing
    /// them (exit 1 when there is one).
    #[arg(long, requires = "fix")]
    pub dry_run: bool,
    /// A live MCP server to ask for its tool list (`--mcp-command -- PROGRAM ARGS…`).
    #[command(flatten)]
    pub live: super::live::LiveArgs,
}

/// Parses a `--provider` value; an unknown name lists the valid ones.
pub fn parse_provider(name: &str) -> Result<Provider, String> {
    name.trim()
        .parse()
        .map_err(|e: UnknownProvider| e.to_string())
}

/// `--dialect` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum DialectArg {
    /// chai (legacy object or split layout).
    Chai,
    /// agentcli tools.json.
    Agentcli,
    /// `--describe` output.
    Describe,
    /// SKILL.md frontmatter.
    Skill,
    /// An MCP tool list (`tools/list` result, JSON-RPC response, array of tools or one tool).
    Mcp,
}

impl From<DialectArg> for DialectChoice {
    fn from(d: DialectArg) -> Self {
        match d {
            DialectArg::Chai => DialectChoice::Chai,
            DialectArg::Agentcli => DialectChoice::Agentcli,
            DialectArg::Describe => DialectChoice::Describe,
            DialectArg::Skill => DialectChoice::Skill,
            DialectArg::Mcp => DialectChoice::Mcp,
        }
    }
}

/// `--chai-version` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ChaiVersionArg {
    /// chai 14ef265: one root object, unknown fields rejected.
    Legacy,
    /// chai v0.5: three files (or a single file with v0.5 keys), unknown fields ignored.
    #[value(name = "v0.5")]
    V05,
}

impl From<ChaiVersionArg> for ChaiVersion {
    fn from(v: ChaiVersionArg) -> Self {
        match v {
            ChaiVersionArg::Legacy => ChaiVersion::Legacy,
            ChaiVersionArg::V05 => ChaiVersion::V05,
        }
    }
}

/// The findings of a run over many files.
#[derive(Debug, Default)]
pub struct Outcome {
    /// All diagnostics, sorted.
    pub diagnostics: Diagnostics,
    /// Number of files read.
    pub files: usize,
    /// Files that could not be read.
    pub errors: Vec<Error>,
    /// Skill files per profile they were checked under.
    pub profiles: BTreeMap<String, usize>,
    /// The text of every skill file read (for its suppression comments).
    pub skill_sources: Vec<Arc<Source>>,
}

/// Runs `toolsmith lint`.
pub fn run(args: &Args) -> Result<Status, Error> {
    let options = Options {
        dialect: args.dialect.map(Into::into),
        profile: args.profile.unwrap_or_default(),
        max_size: args.max_size,
        chai_version: args.chai_version.map(Into::into),
        providers: dedup(&args.provider),
    };
    let exclude = walk::Exclude::new(&args.exclude)?;
    let mut paths = args.paths.clone();
    if !args.live.takes_trailing() {
        paths.extend(args.live.server_argv.iter().map(PathBuf::from));
    }
    let found = if args.live.requested() && paths.is_empty() {
        walk::Found::default()
    } else {
        walk::collect(&paths, &exclude)
    };
    let mut team = crate::config::lint::run(found.inputs.clone(), &options, args)?;
    if args.fix {
        let fixed = crate::fix::run(&team.outcome.diagnostics, args.dry_run, args.max_size)?;
        for file in &fixed.changed {
            anstream::eprintln!("toolsmith: `{file}` changed while it was linted; not fixed");
        }
        let (s, fs) = (plural(fixed.fixes), plural(fixed.files));
        if args.dry_run {
            output::stdout(&fixed.diff)?;
            anstream::eprintln!(
                "toolsmith: --fix would fix {} finding{s} in {} file{fs}",
                fixed.fixes,
                fixed.files
            );
            return Ok(if fixed.fixes > 0 {
                Status::Findings
            } else {
                Status::Ok
            });
        }
        anstream::eprintln!(
            "toolsmith: fixed {} finding{s} in {} file{fs}",
            fixed.fixes,
            fixed.files
        );
        if fixed.files > 0 {
            team = crate::config::lint::run(found.inputs.clone(), &options, args)?;
        }
    }
    crate::fix::annotate(&mut team.outcome.diagnostics);
    let mut outcome = team.outcome;
    if args.live.requested() {
        live_outcome(&args.live, &options, &mut outcome)?;
    }
    let mut errors = found.errors;
    errors.append(&mut outcome.errors);
    if let Some(file) = &args.write_baseline {
        for e in &errors {
            anstream::eprintln!("toolsmith: {e}");
        }
        let n = crate::baseline::write(file, &outcome.diagnostics)?;
        anstream::eprintln!(
            "toolsmith: recorded {n} finding{} of {} file{} in `{}`",
            if n == 1 { "" } else { "s" },
            outcome.files,
            if outcome.files == 1 { "" } else { "s" },
            file.display()
        );
        return Ok(if errors.is_empty() {
            Status::Ok
        } else {
            Status::ToolError
        });
    }
    for e in &errors {
        anstream::eprintln!("toolsmith: {e}");
    }
    let color = render::color_enabled(&std::io::stdout());
    let run = render::Run {
        files: outcome.files,
        skipped: found.skipped + team.skipped,
        profiles: std::mem::take(&mut outcome.profiles),
    };
    let text = render::render(args.format, &outcome.diagnostics, &run, color);
    // JSON and SARIF escape every control character, so there is nothing
    // for anstream to strip: skip its byte-by-byte scan.
    if matches!(args.format, Format::Json | Format::Sarif) {
        output::stdout_raw(&text)?;
    } else {
        output::stdout(&text)?;
    }
    if args.format == Format::Github {
        write_step_summary(&outcome);
    }
    let d = &outcome.diagnostics;
    Ok(if !errors.is_empty() {
        Status::ToolError
    } else if d.has_errors() || (args.deny_warnings && d.warnings() > 0) {
        Status::Findings
    } else {
        Status::Ok
    })
}

/// `"s"` unless `n` is 1.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Asks the live server of `--mcp-command` and adds the findings on its
/// saved list (read as `--dialect mcp`), or the finding that says why there
/// is no list.
fn live_outcome(
    live: &super::live::LiveArgs,
    options: &Options,
    outcome: &mut Outcome,
) -> Result<(), Error> {
    match live.ask()? {
        super::live::Asked::Saved(input) => {
            let options = Options {
                dialect: Some(DialectChoice::Mcp),
                ..options.clone()
            };
            let mut part = lint_inputs(std::slice::from_ref(&input), &options);
            outcome.diagnostics.0.append(&mut part.diagnostics.0);
            outcome.files += part.files;
            outcome.errors.append(&mut part.errors);
        }
        super::live::Asked::Failed(diagnostic) => outcome.diagnostics.0.push(diagnostic),
    }
    outcome.diagnostics.sort();
    Ok(())
}

/// The providers in the order given, each once.
fn dedup(providers: &[Provider]) -> Vec<Provider> {
    let mut out: Vec<Provider> = Vec::new();
    for p in providers {
        if !out.contains(p) {
            out.push(*p);
        }
    }
    out
}

/// Appends the Markdown summary of `outcome` to `$GITHUB_STEP_SUMMARY` when it
/// is set. A summary that cannot be written is a warning on stderr, not a
/// failure: the annotations on stdout are the result.
fn write_step_summary(outcome: &Outcome) {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return;
    };
    let path = PathBuf::from(path);
    let summary = render::github::step_summary(&outcome.diagnostics, outcome.files);
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut file| file.write_all(summary.as_bytes()));
    if let Err(e) = written {
        anstream::eprintln!(
            "toolsmith: warning: cannot write the step summary to `{}`: {e}",
            path.display()
        );
    }
}

/// Lints `inputs`, spreading whole directories over the available cores
/// (a directory is the unit the library checks together). A directory whose
/// files cannot be read becomes an [`Error::Lint`]; the others are still linted.
pub fn lint_inputs(inputs: &[Input], options: &Options) -> Outcome {
    lint_inputs_in(inputs, options, &lint::Run::default())
}

/// [`lint_inputs`] as part of `run` (a run of several batches shares what it
/// found on disk: the host profile of each directory).
pub fn lint_inputs_in(inputs: &[Input], options: &Options, run: &lint::Run) -> Outcome {
    let groups = by_directory(inputs);
    // One directory (the common `toolsmith lint FILE`) is linted on this
    // thread: asking for the core count (cgroup files) and starting a thread
    // would cost more than the lint.
    if groups.len() <= 1 {
        let mut outcome = Outcome::default();
        if let Some((dir, group)) = groups.first() {
            outcome = lint_group(dir, group, options, run);
        }
        outcome.diagnostics.sort();
        return outcome;
    }
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .clamp(1, groups.len());
    // Directories differ a lot in cost, so each worker takes the next one
    // from a shared counter until none are left; the parts are put back in
    // directory order below so the output does not depend on the timing.
    let next = AtomicUsize::new(0);
    let mut parts: Vec<(usize, Outcome)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((dir, group)) = groups.get(i) else {
                            break done;
                        };
                        done.push((i, lint_group(dir, group, options, run)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            // A panic in the rules is a bug: let it end the process (status
            // 101) rather than drop that part's findings.
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    parts.sort_by_key(|(i, _)| *i);
    let mut outcome = Outcome::default();
    for (_, mut part) in parts {
        outcome.diagnostics.0.append(&mut part.diagnostics.0);
        outcome.files += part.files;
        outcome.errors.append(&mut part.errors);
        outcome.skill_sources.append(&mut part.skill_sources);
        for (profile, n) in part.profiles {
            *outcome.profiles.entry(profile).or_default() += n;
        }
    }
    outcome.diagnostics.sort();
    outcome
}

/// The inputs grouped by directory, in the order of the directories' paths,
/// each group in input order. A walk lists the files of a directory
/// together, so runs of one directory are grouped first and only the groups
/// are sorted (the paths of 10,000 files compared once each, not ~14 times
/// as a map would).
fn by_directory(inputs: &[Input]) -> Vec<(&Path, Vec<Input>)> {
    let mut groups: Vec<(&Path, Vec<Input>)> = Vec::new();
    for input in inputs {
        let dir = input.path.parent().unwrap_or(Path::new(""));
        match groups.last_mut() {
            Some((last, group)) if *last == dir => group.push(input.clone()),
            _ => groups.push((dir, vec![input.clone()])),
        }
    }
    // Stable: the runs of one directory stay in input order when merged.
    groups.sort_by(|a, b| a.0.cmp(b.0));
    let mut merged: Vec<(&Path, Vec<Input>)> = Vec::with_capacity(groups.len());
    for (dir, mut group) in groups {
        match merged.last_mut() {
            Some((last, into)) if *last == dir => into.append(&mut group),
            _ => merged.push((dir, group)),
        }
    }
    merged
}

/// Lints one directory; an I/O error becomes an [`Error::Lint`] for it.
fn lint_group(dir: &Path, group: &[Input], options: &Options, run: &lint::Run) -> Outcome {
    match lint::lint_in(group, options, run) {
        Ok(report) => Outcome {
            diagnostics: report.diagnostics,
            files: report.files,
            errors: Vec::new(),
            profiles: report.profiles,
            skill_sources: report.skill_sources,
        },
        Err(source) => Outcome {
            errors: vec![Error::Lint {
                dir: dir.to_path_buf(),
                source,
            }],
            ..Outcome::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Grouping by runs and merging after the sort gives what a map from
    /// directory to files gives: directories in path order, files in input order.
    #[test]
    fn inputs_are_grouped_as_a_map_by_directory_would() {
        let paths = [
            "a/x/tools.json",
            "a/x/SKILL.md",
            "a-b/tools.json",
            "a/tools.json",
            "a/x/allowlist.json",
            "b.json",
            "a/b/c/tools.json",
            "c.json",
            "a/tools.json",
        ];
        let inputs: Vec<Input> = paths.iter().map(|p| Input::new(*p)).collect();
        let mut by_map: BTreeMap<&Path, Vec<Input>> = BTreeMap::new();
        for input in &inputs {
            let dir = input.path.parent().unwrap_or(Path::new(""));
            by_map.entry(dir).or_default().push(input.clone());
        }
        let expected: Vec<(&Path, Vec<Input>)> = by_map.into_iter().collect();
        assert_eq!(by_directory(&inputs), expected);
        assert_eq!(expected.len(), 5);
    }
}
