//! The part of `toolsmith lint` that configs and baselines add: lint each
//! batch of files with its options, apply the configs and suppressions,
//! then leave out what the baseline records.

use super::{Configs, Explicit, apply, plan};
use crate::baseline::Baseline;
use crate::commands::lint::{Args, Outcome, lint_inputs_in};
use crate::error::Error;
use toolsmith_manifest::lint::{self, Input, Options};

/// A lint run's findings after configs, suppressions and the baseline.
#[derive(Debug)]
pub struct Linted {
    /// The findings and counts.
    pub outcome: Outcome,
    /// Files left out by a config's `exclude`.
    pub skipped: usize,
}

/// Lints `inputs` with `options` completed by the configs that apply.
pub fn run(inputs: Vec<Input>, options: &Options, args: &Args) -> Result<Linted, Error> {
    let mut configs = Configs::new(&args.config, args.max_size)?;
    let explicit = Explicit {
        profile: args.profile.is_some(),
        dialect: args.dialect.is_some(),
        providers: !args.provider.is_empty(),
    };
    let (batches, skipped) = plan(inputs, options, &explicit, &mut configs)?;
    let mut outcome = Outcome::default();
    let mut linted = Vec::new();
    let run = lint::Run::default();
    for batch in batches {
        let mut part = lint_inputs_in(&batch.inputs, &batch.options, &run);
        outcome.diagnostics.0.append(&mut part.diagnostics.0);
        outcome.files += part.files;
        outcome.errors.append(&mut part.errors);
        outcome.skill_sources.append(&mut part.skill_sources);
        for (profile, n) in part.profiles {
            *outcome.profiles.entry(profile).or_default() += n;
        }
        linted.extend(batch.inputs);
    }
    apply::apply(
        &mut outcome.diagnostics,
        &linted,
        &std::mem::take(&mut outcome.skill_sources),
        &mut configs,
        args.max_size,
    )?;
    if let Some(file) = &args.baseline {
        let baseline = Baseline::read(file, args.max_size)?;
        let m = baseline.filter(&mut outcome.diagnostics);
        let stale = if m.stale > 0 {
            format!(
                "; {} of its entries matched nothing (fixed since: rewrite it with --write-baseline)",
                m.stale
            )
        } else {
            String::new()
        };
        anstream::eprintln!(
            "toolsmith: {} finding{} matched the baseline `{}` and {} not shown{stale}",
            m.matched,
            if m.matched == 1 { "" } else { "s" },
            file.display(),
            if m.matched == 1 { "is" } else { "are" },
        );
    }
    Ok(Linted { outcome, skipped })
}
