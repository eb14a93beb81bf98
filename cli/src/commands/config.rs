//! `toolsmith config --print PATH`: the settings toolsmith.toml gives one
//! file — which config applies, whether the file is excluded, the profile,
//! dialect and providers, and every rule whose severity differs from its
//! default, each with the line of the config that set it.

use crate::config::{ConfigArgs, Configs};
use crate::error::{Error, Status};
use crate::output;
use std::fmt::Write as _;
use std::path::PathBuf;
use toolsmith_manifest::config::{At, Config, Level, Settings};
use toolsmith_manifest::registry;

/// Arguments of `toolsmith config`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the effective settings for this file (it need not exist).
    #[arg(long, value_name = "PATH", required = true)]
    pub print: PathBuf,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Runs `toolsmith config --print PATH`.
pub fn run(args: &Args) -> Result<Status, Error> {
    let mut configs = Configs::new(&args.config, toolsmith_manifest::input::DEFAULT_MAX_SIZE)?;
    let found = configs.for_file(&args.print)?;
    let text = render(
        &args.print.display().to_string(),
        found.as_ref().map(|(c, s)| (&**c, &**s)),
    );
    output::stdout(&text)?;
    let broken = found.is_some_and(|(c, _)| {
        c.findings
            .iter()
            .any(|f| f.severity == toolsmith_manifest::Severity::Error)
    });
    Ok(if broken { Status::Findings } else { Status::Ok })
}

/// The text `config --print` shows (TOML, with the origin of each setting as a comment).
pub fn render(file: &str, found: Option<(&Config, &Settings)>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# effective settings for {file}");
    let Some((config, settings)) = found else {
        let _ = writeln!(
            out,
            "# no toolsmith.toml applies: every rule has its default severity"
        );
        return out;
    };
    let name = config.source.path();
    let _ = writeln!(out, "# config: {name}");
    for problem in &config.findings {
        let d = problem.clone().locate_shared(&config.source);
        let _ = writeln!(out, "# {d}");
    }
    for &i in &settings.overrides {
        if let Some(o) = config.overrides.get(i) {
            let paths: Vec<&str> = o.paths.iter().map(|p| p.value.as_str()).collect();
            let _ = writeln!(
                out,
                "# override {} applies (line {}): paths {:?}",
                i + 1,
                config.line_of(o.span),
                paths
            );
        }
    }
    let origin = |span| format!("  # {name}:{}", config.line_of(span));
    let _ = writeln!(out, "excluded = {}", settings.excluded);
    match &settings.profile {
        Some(At { value, span }) => {
            let _ = writeln!(out, "profile = \"{value}\"{}", origin(*span));
        }
        None => {
            let _ = writeln!(
                out,
                "profile = \"detect\"  # found from where the file lives"
            );
        }
    }
    match &settings.dialect {
        Some(At { value, span }) => {
            let _ = writeln!(
                out,
                "dialect = \"{}\"{}",
                format!("{value:?}").to_lowercase(),
                origin(*span)
            );
        }
        None => {
            let _ = writeln!(out, "dialect = \"detect\"");
        }
    }
    match &settings.providers {
        Some(At { value, span }) => {
            let names: Vec<String> = value.iter().map(|p| format!("\"{p}\"")).collect();
            let _ = writeln!(out, "providers = [{}]{}", names.join(", "), origin(*span));
        }
        None => {
            let _ = writeln!(out, "providers = []");
        }
    }
    let _ = writeln!(
        out,
        "\n[rules]  # the rules whose severity differs from the default"
    );
    for rule in registry::all() {
        let Some(setting) = config.rule_setting(settings, rule.id) else {
            continue;
        };
        if setting.level == Level::On(rule.severity) {
            continue;
        }
        let _ = writeln!(
            out,
            "\"{}\" = \"{}\"  # default {}; set by \"{}\" at {name}:{}",
            rule.id,
            setting.level,
            rule.severity,
            setting.pattern,
            config.line_of(setting.span)
        );
    }
    let relative = config
        .relative(std::path::Path::new(file))
        .unwrap_or_else(|| file.into());
    let allows: Vec<_> = config
        .allow
        .iter()
        .filter(|a| a.applies_to(&relative))
        .collect();
    if !allows.is_empty() {
        let _ = writeln!(out, "\n# [[allow]] entries for this file");
        for a in allows {
            let at = a
                .pointer
                .as_ref()
                .map(|p| format!(" at \"{}\"", p.value))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "#   {}{at}: {} ({name}:{})",
                a.rule.value,
                a.reason,
                config.line_of(a.span)
            );
        }
    }
    out
}
