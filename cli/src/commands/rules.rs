//! `toolsmith rules`: every rule with its default severity, dialect and summary;
//! `toolsmith rules --profile NAME`: the same table with each rule's severity
//! under that skill profile (`off` when the profile does not report it), and
//! the host's fields, rules and sources.

use crate::error::{Error, Status};
use crate::output;
use std::fmt::Write as _;
use toolsmith_manifest::dialect::skill::hosts;
use toolsmith_manifest::registry;
use toolsmith_manifest::{Profile, Profiles};

/// Arguments of `toolsmith rules`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Show the severities under this skill profile (`default`, `strict`,
    /// `claude-code`, `claude-api`, `codex`, `copilot`, `cursor`) and what
    /// the host reads.
    #[arg(long, value_name = "NAME", value_parser = parse_profile)]
    pub profile: Option<Profile>,
    /// The severities shown are those of the toolsmith.toml found from the
    /// current directory up (its top level), unless `--no-config`.
    #[command(flatten)]
    pub config: crate::config::ConfigArgs,
}

fn parse_profile(name: &str) -> Result<Profile, String> {
    let set = Profiles::parse(name)?;
    let mut it = set.iter();
    match (it.next(), it.next()) {
        (Some(p), None) => Ok(p),
        _ => Err("name one profile".to_string()),
    }
}

/// Prints the rule table: `id  severity  dialect  summary`, sorted by id.
pub fn run(args: &Args) -> Result<Status, Error> {
    // The lint rules, then the generator's own (`toolsmith gen`, `tools!`).
    let mut all = registry::all();
    all.extend(toolsmith_codegen::issue::RULES.iter().copied());
    all.sort_by_key(|r| r.id);
    let width = all.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let mut configs =
        crate::config::Configs::new(&args.config, toolsmith_manifest::input::DEFAULT_MAX_SIZE)?;
    let config = configs.for_directory(std::path::Path::new("."))?;
    let top = toolsmith_manifest::config::Settings::default();
    if let Some(c) = &config {
        anstream::eprintln!(
            "toolsmith: severities as `{}` sets them at its top level (`toolsmith config --print PATH` shows a file's)",
            c.source.path()
        );
    }
    let mut out = String::new();
    if let Some(profile) = args.profile {
        let host = hosts::host(profile);
        let _ = writeln!(out, "profile {}: {}", profile.name(), profile.host());
        let _ = writeln!(out, "  detected: {}", host.location);
        let _ = writeln!(out, "  fields:   {}", host.fields);
        let _ = writeln!(out, "  rules:    {}", host.rules);
        let _ = writeln!(
            out,
            "  source:   {} (read {}; the hosts' own pages could not be fetched from here)",
            host.source,
            hosts::READ_ON
        );
        out.push('\n');
    }
    for rule in all {
        let severity = match args.profile {
            Some(p) if rule.dialect == "skill" || rule.id == "frontmatter/inner-delimiter" => {
                hosts::severity_of(rule.id, "", p).map_or("off".to_string(), |s| s.to_string())
            }
            _ => rule.severity.to_string(),
        };
        // The config's verdict on top of the profile's.
        let mut origin = String::new();
        let severity = match config
            .as_ref()
            .and_then(|c| c.rule_setting(&top, rule.id).map(|s| (c, s)))
        {
            Some((c, setting)) if setting.level.to_string() != severity => {
                origin = format!(
                    " [{severity} by default; {}:{}]",
                    c.source.path(),
                    c.line_of(setting.span)
                );
                setting.level.to_string()
            }
            _ => severity,
        };
        let fixable = toolsmith_manifest::fix::describe(rule.id)
            .map(|what| format!(" [fixable: `lint --fix` {what}]"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{:width$}  {:7}  {:8}  {}{fixable}{origin}",
            rule.id, severity, rule.dialect, rule.summary
        );
        if let Some(p) = args.profile {
            let changed = |x: &&hosts::Policy| {
                x.rule == rule.id && x.severity[p as usize] != Some(rule.severity)
            };
            for policy in hosts::POLICIES.iter().filter(changed) {
                let sev = policy.severity[p as usize].map_or("off".to_string(), |s| s.to_string());
                let field = policy
                    .field
                    .map(|f| format!(" (`{f}`)"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{:width$}  {sev}{field} under {}: {}",
                    "",
                    p.name(),
                    policy.why
                );
            }
        }
    }
    output::stdout(&out)?;
    Ok(Status::Ok)
}
