//! `toolsmith.toml` in a lint run: finding the file that applies to each
//! linted path (the nearest one walking up from the file's directory, or
//! `--config FILE` for all; none with `--no-config`), splitting the inputs by
//! the options their settings give, and — in [`apply`] — turning findings
//! into what the team asked for (severities, suppressions).

pub mod apply;
pub mod lint;

use crate::error::Error;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toolsmith_manifest::config::{self, Config, FILE_NAME, Settings};
use toolsmith_manifest::lint::{FileKind, Input, Options, classify};

/// Command-line flags shared by `lint`, `rules` and `config`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ConfigArgs {
    /// Use this toolsmith.toml for every file instead of the nearest one
    /// found walking up from each file's directory.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Ignore every toolsmith.toml.
    #[arg(long)]
    pub no_config: bool,
}

/// The config that applies to a file, and what it says about the file.
pub type Applicable = Option<(Arc<Config>, Arc<Settings>)>;

/// The config files of a run, loaded once each.
#[derive(Debug)]
pub struct Configs {
    explicit: Option<Arc<Config>>,
    disabled: bool,
    max_size: u64,
    /// Directory → the config that applies below it. (Paths are keyed by
    /// their bytes: hashing a `Path` walks its components, and a run asks
    /// once per file and once per finding.)
    by_dir: HashMap<OsString, Option<Arc<Config>>>,
    /// Every config loaded, in load order.
    loaded: Vec<Arc<Config>>,
    /// File → its config and settings.
    by_file: HashMap<OsString, Applicable>,
}

impl Configs {
    /// Reads `--config FILE` when given; a file that cannot be read is a tool error.
    pub fn new(args: &ConfigArgs, max_size: u64) -> Result<Configs, Error> {
        let mut configs = Configs {
            explicit: None,
            disabled: args.no_config,
            max_size,
            by_dir: HashMap::new(),
            loaded: Vec::new(),
            by_file: HashMap::new(),
        };
        if let Some(path) = &args.config {
            let config = configs.load(path)?;
            configs.explicit = Some(config);
        }
        Ok(configs)
    }

    fn load(&mut self, path: &Path) -> Result<Arc<Config>, Error> {
        let absolute = std::path::absolute(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let read = toolsmith_manifest::input::read_bounded(&absolute, self.max_size).map_err(
            |source| Error::Read {
                path: path.to_path_buf(),
                source,
            },
        )?;
        let bytes = read.map_err(|finding| Error::Config {
            path: path.to_path_buf(),
            message: finding.message,
        })?;
        let dir = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
        let display = display_path(&absolute);
        let config = match String::from_utf8(bytes) {
            Ok(text) => config::parse(&display, dir, &text),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let mut c = config::parse(&display, dir, "");
                c.source = Arc::new(toolsmith_manifest::source::Source::new(&display, text));
                c.findings.push(toolsmith_manifest::Finding::new(
                    &config::SYNTAX,
                    toolsmith_manifest::source::Span::new(at, at + 1),
                    "",
                    format!("toolsmith.toml is not UTF-8 (byte {at}); the file is not used"),
                ));
                c
            }
        };
        let config = Arc::new(config);
        self.loaded.push(Arc::clone(&config));
        Ok(config)
    }

    /// The config for files in `dir` (absolute, normalized as
    /// `std::path::absolute` and `Path::parent` leave it): the nearest
    /// `toolsmith.toml` in it or a parent.
    fn for_dir(&mut self, dir: &Path) -> Result<Option<Arc<Config>>, Error> {
        if let Some(found) = self.by_dir.get(dir.as_os_str()) {
            return Ok(found.clone());
        }
        let candidate = dir.join(FILE_NAME);
        let found = if candidate.is_file() {
            Some(self.load(&candidate)?)
        } else {
            match dir.parent() {
                Some(parent) => self.for_dir(parent)?,
                None => None,
            }
        };
        self.by_dir
            .insert(dir.as_os_str().to_owned(), found.clone());
        Ok(found)
    }

    /// The config and settings that apply to `file` (as printed or given).
    pub fn for_file(&mut self, file: &Path) -> Result<Applicable, Error> {
        if self.disabled {
            return Ok(None);
        }
        if let Some(found) = self.by_file.get(file.as_os_str()) {
            return Ok(found.clone());
        }
        let config = match &self.explicit {
            Some(c) => Some(Arc::clone(c)),
            None => {
                let absolute = std::path::absolute(file).map_err(|source| Error::Read {
                    path: file.to_path_buf(),
                    source,
                })?;
                let dir = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
                self.for_dir(&dir)?
            }
        };
        let found = config.map(|c| {
            let relative = c.relative(file).unwrap_or_else(|| file.to_path_buf());
            let settings = Arc::new(c.settings(&relative));
            (c, settings)
        });
        self.by_file
            .insert(file.as_os_str().to_owned(), found.clone());
        Ok(found)
    }

    /// The config for a directory (for `toolsmith rules`): `--config`, or the
    /// nearest one from `dir` up.
    pub fn for_directory(&mut self, dir: &Path) -> Result<Option<Arc<Config>>, Error> {
        if self.disabled {
            return Ok(None);
        }
        if let Some(c) = &self.explicit {
            return Ok(Some(Arc::clone(c)));
        }
        let absolute = std::path::absolute(dir).map_err(|source| Error::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        // Without a trailing `/`, spelt as the parents of files are.
        let absolute: PathBuf = absolute.components().collect();
        self.for_dir(&absolute)
    }

    /// Every config loaded so far.
    pub fn loaded(&self) -> &[Arc<Config>] {
        &self.loaded
    }
}

/// `path` relative to the current directory when it is below it.
fn display_path(absolute: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| absolute.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative
        .filter(|r| !r.as_os_str().is_empty())
        .unwrap_or_else(|| absolute.to_path_buf())
        .display()
        .to_string()
}

/// Inputs that share options, linted together.
#[derive(Debug)]
pub struct Batch {
    /// The options (the command line's, completed by the config).
    pub options: Options,
    /// The files.
    pub inputs: Vec<Input>,
}

/// Splits `inputs` by the options their config settings give on top of
/// `base` (command-line flags win over the config), leaving out the files a
/// config's `exclude` matches (except skill files that start with
/// frontmatter, as `--exclude` does). Returns the batches and the number of
/// files left out.
pub fn plan(
    inputs: Vec<Input>,
    base: &Options,
    flags: &Explicit,
    configs: &mut Configs,
) -> Result<(Vec<Batch>, usize), Error> {
    let mut batches: Vec<Batch> = Vec::new();
    let mut skipped = 0;
    for input in inputs {
        let mut options = base.clone();
        if let Some((_, settings)) = configs.for_file(Path::new(&input.display))? {
            if settings.excluded && !keeps_excluded(&input.path) {
                skipped += 1;
                continue;
            }
            if !flags.profile
                && let Some(p) = &settings.profile
            {
                options.profile = p.value;
            }
            if !flags.dialect
                && let Some(d) = &settings.dialect
            {
                options.dialect = Some(d.value);
            }
            if !flags.providers
                && let Some(p) = &settings.providers
            {
                options.providers = p.value.clone();
            }
        }
        match batches
            .iter_mut()
            .find(|b| same_options(&b.options, &options))
        {
            Some(batch) => batch.inputs.push(input),
            None => batches.push(Batch {
                options,
                inputs: vec![input],
            }),
        }
    }
    Ok((batches, skipped))
}

/// Which options the command line set (and so the config does not).
#[derive(Debug, Clone, Copy, Default)]
pub struct Explicit {
    /// `--profile`.
    pub profile: bool,
    /// `--dialect`.
    pub dialect: bool,
    /// `--provider`.
    pub providers: bool,
}

fn same_options(a: &Options, b: &Options) -> bool {
    a.profile == b.profile && a.dialect == b.dialect && a.providers == b.providers
}

/// A skill file that starts with frontmatter is linted even when excluded.
fn keeps_excluded(path: &Path) -> bool {
    classify(path) == Some(FileKind::Skill) && crate::walk::starts_with_frontmatter(path)
}
