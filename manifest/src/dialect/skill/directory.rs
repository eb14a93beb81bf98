//! The skill directory: what the body points at must be inside it.
//!
//! Relative Markdown links and images, and paths in code spans that start
//! with the skill's own `scripts/`, `references/` or `assets/`, must name a
//! file or directory that exists inside the directory holding `SKILL.md`:
//! no `..` out of it, no absolute path, no symbolic link leading out.
//! Anchors (`#…`) and URLs with a scheme are not checked (no network).
//! A code-span path that names no file is only a warning
//! (`skill/missing-path`): it may mean a folder of the project the skill
//! works on. A file in those three folders that the body (or another text
//! file of the skill) never mentions is a note.

use super::Ctx;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::source::Span;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs::FileType;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

pub static BROKEN_LINK: Rule = Rule::error(
    "skill/broken-link",
    "skill",
    "a link, image or `scripts/`/`references/`/`assets/` path in the body names no file inside the skill directory (missing, `..` out of it, or absolute)",
);
pub static MISSING_PATH: Rule = Rule::warning(
    "skill/missing-path",
    "skill",
    "a `scripts/`, `references/` or `assets/` path in a code span names no file in the skill directory (it may mean a folder of the project rather than the skill's)",
);
pub static UNREFERENCED_FILE: Rule = Rule::note(
    "skill/unreferenced-file",
    "skill",
    "a file in the skill's `scripts/`, `references/` or `assets/` that the body never mentions",
);

/// The folders the spec gives a skill.
pub const FOLDERS: [&str; 3] = ["scripts", "references", "assets"];

/// Files listed per folder before giving up (a directory is not a dump).
const MAX_FILES: usize = 2_000;
/// Depth below a folder.
const MAX_DEPTH: usize = 8;
/// Bytes of a text file read when looking for mentions.
const MAX_TEXT: u64 = 1 << 20;

/// One path the body points at.
struct Target {
    /// As written.
    text: String,
    /// Where (the link text, or the path in the code span).
    span: Span,
    /// A link or image (else a code-span path).
    link: bool,
}

/// Checks the body of the skill at `ctx.path` (a `SKILL.md` on disk).
pub(crate) fn check(ctx: &mut Ctx<'_>, body: &str, body_offset: usize) {
    let Some(dir) = ctx.path.parent().map(Path::to_path_buf) else {
        return;
    };
    // The run's listing of the directory when it has one, else one read here:
    // every question below about the directory's entries is answered from it.
    let own;
    let listing = match ctx.listing {
        Some(l) if l.dir == dir => l,
        _ => {
            own = Listing::read(&dir);
            &own
        }
    };
    let is_file = match ctx.path.file_name() {
        Some(name) => listing.is_file(name),
        None => ctx.path.is_file(),
    };
    if !is_file {
        return;
    }
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    let mut resolver = Resolver {
        dir: &dir,
        listing,
        canonical_dir: None,
    };
    let mut referenced = BTreeSet::new();
    for target in targets(body, body_offset) {
        check_target(ctx, &mut resolver, &target, &mut referenced);
    }
    unreferenced(ctx, &dir, listing, body, &referenced);
}

/// The entries of one directory, read once: whether `scripts/` exists or
/// `allowlist.json` is a file is then answered from them rather than by a
/// system call on the whole path per question. Entries that are symbolic
/// links, or whose type the directory does not record, are still asked
/// about on disk, so the answers are those of `Path::is_file` and friends.
#[derive(Debug)]
pub(crate) struct Listing {
    /// The directory as given (`""` for the current directory).
    dir: PathBuf,
    /// Name and type (not following links) of each entry in the order read;
    /// `None` when the directory cannot be read.
    entries: Option<Vec<(OsString, Option<FileType>)>>,
}

/// What a [`Listing`] says about a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// No such entry.
    Absent,
    /// An entry that is not a symbolic link: a directory or not.
    Plain { dir: bool, file: bool },
    /// A symbolic link, an entry of unknown type, or an unreadable directory: ask the disk.
    Unsure,
}

impl Listing {
    /// Reads the entries of `dir`.
    pub(crate) fn read(dir: &Path) -> Listing {
        let at = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let entries = std::fs::read_dir(at).ok().map(|entries| {
            entries
                .flatten()
                .map(|e| (e.file_name(), e.file_type().ok()))
                .collect()
        });
        Listing {
            dir: dir.to_path_buf(),
            entries,
        }
    }

    fn entry(&self, name: &OsStr) -> Entry {
        let Some(entries) = &self.entries else {
            return Entry::Unsure;
        };
        match entries.iter().find(|(n, _)| n == name) {
            None => Entry::Absent,
            Some((_, Some(t))) if !t.is_symlink() => Entry::Plain {
                dir: t.is_dir(),
                file: t.is_file(),
            },
            Some(_) => Entry::Unsure,
        }
    }

    /// True when `name` in the directory is a regular file (following a
    /// symbolic link), as `Path::is_file` says.
    pub(crate) fn is_file(&self, name: impl AsRef<OsStr>) -> bool {
        let name = name.as_ref();
        match self.entry(name) {
            Entry::Absent => false,
            Entry::Plain { file, .. } => file,
            Entry::Unsure => self.dir.join(name).is_file(),
        }
    }

    /// False when `name` in the directory is known not to be a directory
    /// (absent, or an entry of another type that is no symbolic link).
    pub(crate) fn may_be_dir(&self, name: impl AsRef<OsStr>) -> bool {
        !matches!(
            self.entry(name.as_ref()),
            Entry::Absent | Entry::Plain { dir: false, .. }
        )
    }

    /// The regular files (not following links) other than `except`, in the
    /// order read; `None` when the directory cannot be read.
    fn files_except<'l>(&'l self, except: &'l str) -> Option<impl Iterator<Item = &'l OsStr>> {
        let entries = self.entries.as_ref()?;
        Some(
            entries
                .iter()
                .filter(move |(n, t)| t.is_some_and(|t| t.is_file()) && n != except)
                .map(|(n, _)| n.as_os_str()),
        )
    }
}

/// Where a path below the skill directory leads, as `canonicalize` would
/// tell: answered from the listing and `lstat` of the path's own
/// components while none is a symbolic link, by `canonicalize` otherwise.
struct Resolver<'a> {
    dir: &'a Path,
    listing: &'a Listing,
    /// The canonical skill directory, found when a link first needs it.
    canonical_dir: Option<PathBuf>,
}

/// Where a path below the skill directory leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolved {
    /// To a file or directory inside the skill directory.
    Inside,
    /// Through a symbolic link to somewhere outside it.
    Outside,
    /// Nowhere: it does not exist.
    Missing,
}

impl Resolver<'_> {
    /// Where `rel` (lexically normalized, relative) leads.
    fn resolve(&mut self, rel: &Path) -> Resolved {
        match self.without_links(rel) {
            Some(resolved) => resolved,
            None => self.canonical(rel),
        }
    }

    /// The answer when no component of `rel` is a symbolic link (so the path
    /// is inside exactly when it exists); `None` when one is, or when the
    /// listing cannot tell.
    fn without_links(&self, rel: &Path) -> Option<Resolved> {
        let mut parts = rel.components();
        let Some(Component::Normal(first)) = parts.next() else {
            return None;
        };
        let Entry::Plain { mut dir, .. } = self.listing.entry(first) else {
            return (self.listing.entry(first) == Entry::Absent).then_some(Resolved::Missing);
        };
        let mut path = self.dir.join(first);
        for part in parts {
            let Component::Normal(part) = part else {
                return None;
            };
            if !dir {
                return Some(Resolved::Missing);
            }
            path.push(part);
            match std::fs::symlink_metadata(&path) {
                Err(_) => return Some(Resolved::Missing),
                Ok(m) if m.file_type().is_symlink() => return None,
                Ok(m) => dir = m.is_dir(),
            }
        }
        Some(Resolved::Inside)
    }

    /// The answer of `canonicalize`, for paths through symbolic links.
    fn canonical(&mut self, rel: &Path) -> Resolved {
        let Ok(real) = self.dir.join(rel).canonicalize() else {
            return Resolved::Missing;
        };
        let dir = self.dir;
        let canonical_dir = self
            .canonical_dir
            .get_or_insert_with(|| dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()));
        if real.starts_with(canonical_dir) {
            Resolved::Inside
        } else {
            Resolved::Outside
        }
    }
}

/// A link being read: its destination, where it starts, and the extent of
/// its text so far.
type OpenLink = (String, usize, Option<(usize, usize)>);

/// Links, images and folder paths in code spans, in body order.
fn targets(body: &str, body_offset: usize) -> Vec<Target> {
    let mut out = Vec::new();
    if !may_point(body) {
        return out;
    }
    let mut open: Vec<OpenLink> = Vec::new();
    let parser = Parser::new_ext(body, Options::empty()).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                open.push((dest_url.to_string(), range.start, None));
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some((dest, start, text)) = open.pop() {
                    let (s, e) = text.unwrap_or((start, range.end));
                    out.push(Target {
                        text: dest,
                        span: Span::new(body_offset + s, body_offset + e),
                        link: true,
                    });
                }
            }
            Event::Code(code) => {
                if let Some((_, _, text)) = open.last_mut() {
                    widen(text, range.start, range.end);
                }
                // The code text sits between the backticks: find it in the
                // range (once, for the first path of the span).
                let mut inner = None;
                let mut inner = || {
                    *inner.get_or_insert_with(|| {
                        body[range.clone()]
                            .find(code.as_ref())
                            .map_or(range.start, |i| range.start + i)
                    })
                };
                for word in code.split_whitespace() {
                    // `word` is a slice of `code`: its offset is where it starts.
                    let i = word.as_ptr() as usize - code.as_ptr() as usize;
                    let word = word.trim_end_matches(['.', ',', ';', ':', ')', '"', '\'']);
                    let word = word.trim_start_matches(['"', '\'', '(']);
                    let path = word.strip_prefix("./").unwrap_or(word);
                    let in_folder = FOLDERS.iter().any(|f| {
                        path.strip_prefix(f)
                            .and_then(|r| r.strip_prefix('/'))
                            .is_some_and(|rest| !rest.is_empty())
                    });
                    let templated = path.contains(['*', '?', '<', '>', '{', '}', '$', '[']);
                    if in_folder && !templated {
                        let s = inner() + i;
                        out.push(Target {
                            text: path.to_string(),
                            span: Span::new(body_offset + s, body_offset + s + word.len()),
                            link: false,
                        });
                    }
                }
            }
            Event::Text(_) | Event::Html(_) | Event::InlineHtml(_) => {
                if let Some((_, _, text)) = open.last_mut() {
                    widen(text, range.start, range.end);
                }
            }
            _ => {}
        }
    }
    out
}

/// False when `body` cannot hold a target, so that it need not be parsed:
/// every link or image needs `](` (inline), `][` (full or collapsed
/// reference) or `]:` (the definition a shortcut reference needs), an
/// autolink needs `<`, and a folder path in a code span names `scripts/`,
/// `references/` or `assets/`.
fn may_point(body: &str) -> bool {
    let bytes = body.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| match b {
        b'<' => true,
        b']' => matches!(bytes.get(i + 1), Some(b'(' | b'[' | b':')),
        b'/' => FOLDERS.iter().any(|f| bytes[..i].ends_with(f.as_bytes())),
        _ => false,
    })
}

fn widen(text: &mut Option<(usize, usize)>, start: usize, end: usize) {
    *text = Some(match *text {
        Some((s, e)) => (s.min(start), e.max(end)),
        None => (start, end),
    });
}

/// True for `http:`, `mailto:`, `data:` … (a scheme of two letters or more,
/// so that `C:` is not one).
fn has_scheme(target: &str) -> bool {
    let Some((scheme, _)) = target.split_once(':') else {
        return false;
    };
    scheme.len() >= 2
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `%20` → ` `; invalid escapes are kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// The path relative to the skill directory, lexically normalized; `Err`
/// with the reason when it is absolute or leaves the directory.
fn relative(path: &str) -> Result<PathBuf, &'static str> {
    let windows_drive = path.len() >= 2 && path.as_bytes()[1] == b':';
    if path.starts_with(['/', '\\', '~']) || windows_drive {
        return Err("is an absolute path");
    }
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for c in Path::new(path).components() {
        match c {
            Component::Normal(p) => parts.push(p),
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err("leaves the skill directory");
                }
            }
            Component::RootDir | Component::Prefix(_) => return Err("is an absolute path"),
        }
    }
    Ok(parts.iter().collect())
}

fn check_target(
    ctx: &mut Ctx<'_>,
    resolver: &mut Resolver<'_>,
    target: &Target,
    referenced: &mut BTreeSet<PathBuf>,
) {
    let written = target.text.trim();
    if written.is_empty() || written.starts_with('#') || has_scheme(written) {
        return;
    }
    let path = written
        .split(['#', '?'])
        .next()
        .map(percent_decode)
        .unwrap_or_default();
    if path.is_empty() {
        return;
    }
    // `[the functions skill](/plugin:functions)`: a host's skill or command
    // reference, not a path.
    if target.link
        && written
            .strip_prefix('/')
            .is_some_and(|r| !r.contains('/') && r.contains(':'))
    {
        return;
    }
    let what = if target.link { "link" } else { "path" };
    let problem = match relative(&path) {
        Err(why) => Some(format!(
            "{what} `{written}` {why}: hosts install and upload only the skill directory"
        )),
        Ok(rel) => match resolver.resolve(&rel) {
            Resolved::Missing if !target.link => {
                ctx.findings.push(
                        Finding::new(
                            &MISSING_PATH,
                            target.span,
                            "",
                            format!(
                                "path `{written}` names no file in the skill directory (`{}` does not exist)",
                                rel.display()
                            ),
                        )
                        .with_help("add the file to the skill, or, if the path means a folder of the project rather than the skill's, write it so (e.g. `./tools/scripts/x`)"),
                    );
                None
            }
            Resolved::Missing => Some(format!(
                "{what} `{written}` names no file in the skill directory (`{}` does not exist)",
                rel.display()
            )),
            Resolved::Outside => Some(format!(
                "{what} `{written}` leads out of the skill directory through a symbolic link"
            )),
            Resolved::Inside => {
                referenced.insert(rel);
                None
            }
        },
    };
    if let Some(message) = problem {
        ctx.findings.push(
            Finding::new(&BROKEN_LINK, target.span, "", message).with_help(
                "paths are relative to the directory holding SKILL.md: put the file inside it (e.g. `references/`) and fix the path",
            ),
        );
    }
}

/// Files below `dir/folder`, relative to `dir`, sorted; bounded.
fn list(dir: &Path, folder: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(PathBuf::from(folder), 0usize)];
    while let Some((rel, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            if out.len() >= MAX_FILES {
                return out;
            }
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let child = rel.join(&name);
            match entry.file_type() {
                Ok(t) if t.is_dir() && depth < MAX_DEPTH => stack.push((child, depth + 1)),
                Ok(t) if t.is_file() => out.push(child),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// Files a toolchain reads by convention, never by a path in the body: a
/// package marker, a manifest or lock file of the scripts' language.
const IMPLICIT: [&str; 18] = [
    "__init__.py",
    "__main__.py",
    "conftest.py",
    "requirements.txt",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "package.json",
    "package-lock.json",
    "pnpm-lock.yaml",
    "yarn.lock",
    "tsconfig.json",
    "Cargo.toml",
    "Cargo.lock",
    "go.mod",
    "go.sum",
    "Gemfile",
    "Gemfile.lock",
];

/// Extensions of scripts that load each other by module name (`from
/// helpers.merge_runs import …`, `require('./lib')`) rather than by path.
const CODE: [&str; 13] = [
    "py", "js", "mjs", "cjs", "ts", "mts", "rb", "pl", "pm", "lua", "sh", "bash", "zsh",
];

/// A directory with at least this many unmentioned files gets one note
/// naming them, not one note each.
const GROUP: usize = 3;
/// File names listed in a grouped note.
const LISTED: usize = 4;

/// True for a script, by extension.
fn is_code(file: &Path) -> bool {
    file.extension()
        .is_some_and(|e| CODE.contains(&e.to_string_lossy().as_ref()))
}

/// Bytes of all text files read when looking for mentions, together.
const MAX_TEXTS: u64 = 16 << 20;

/// The text of the file at `path` when it is UTF-8 and its size fits both
/// [`MAX_TEXT`] and what is left of `budget` (which it then uses up). A file
/// that cannot be opened still uses up its size when it has one.
fn read_text(path: &Path, budget: &mut u64) -> Option<String> {
    let mut fits = |len: u64| {
        let fits = len <= MAX_TEXT && len <= *budget;
        if fits {
            *budget -= len;
        }
        fits
    };
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(_) => {
            if let Ok(meta) = std::fs::metadata(path) {
                fits(meta.len());
            }
            return None;
        }
    };
    let len = file.metadata().map_or(u64::MAX, |m| m.len());
    if !fits(len) {
        return None;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes).ok()?;
    String::from_utf8(bytes).ok()
}

/// The words of a text that can name a file: each run of path characters
/// (letters, digits, `_ . - /`) as written, without a leading `./` or
/// trailing dots, and its parts between `/` and between `/` or `.`. A
/// file name, a path, a dotted module path and a module name are then
/// looked up, not searched for, so the check is linear in the text.
fn words(text: &str) -> HashSet<&str> {
    let path_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '/');
    let mut out = HashSet::new();
    for run in text.split(|c: char| !path_char(c)) {
        let run = run.trim_start_matches("./").trim_end_matches('.');
        if run.is_empty() {
            continue;
        }
        out.insert(run);
        for part in run.split('/') {
            out.insert(part.trim_end_matches('.'));
            if part.contains('.') {
                out.extend(part.split('.'));
            }
        }
    }
    out
}

/// Which texts hold each word: the first one, and whether another does too.
#[derive(Default)]
struct Mentions<'t> {
    holders: HashMap<&'t str, (usize, bool)>,
}

impl<'t> Mentions<'t> {
    fn add(&mut self, index: usize, text: &'t str) {
        for word in words(text) {
            self.holders
                .entry(word)
                .and_modify(|(first, more)| *more |= *first != index)
                .or_insert((index, false));
        }
    }

    /// True when a text other than `index` holds `word`.
    fn elsewhere(&self, word: &str, index: Option<usize>) -> bool {
        self.holders
            .get(word)
            .is_some_and(|&(first, more)| more || Some(first) != index)
    }
}

/// Notes the files of the three folders that nothing mentions: not the
/// body (by path, by file name, by a folder above the file, or a script by
/// its dotted module path), not another text file of
/// the skill in those folders or beside `SKILL.md` (by file name; a
/// script also by module name from another script). Package markers and manifests (`__init__.py`,
/// `requirements.txt`, …) are never noted, and a directory holding several
/// unmentioned files gets one note that lists them.
fn unreferenced(
    ctx: &mut Ctx<'_>,
    dir: &Path,
    listing: &Listing,
    body: &str,
    referenced: &BTreeSet<PathBuf>,
) {
    let files: Vec<PathBuf> = FOLDERS
        .iter()
        // A folder the listing knows to be absent (or a file) has nothing to list.
        .filter(|f| listing.may_be_dir(f))
        .flat_map(|f| list(dir, f))
        .filter(|f| {
            !f.file_name()
                .is_some_and(|n| IMPLICIT.contains(&n.to_string_lossy().as_ref()))
                && !f.components().any(|c| c.as_os_str() == "__pycache__")
        })
        .collect();
    if files.is_empty() {
        return;
    }
    // Text files of the three folders, and those beside SKILL.md (a
    // `forms.md` the body links may list the scripts).
    let beside: Vec<PathBuf> = match listing.files_except("SKILL.md") {
        Some(names) => names.map(PathBuf::from).take(MAX_FILES).collect(),
        None => std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()) && e.file_name() != "SKILL.md")
            .map(|e| PathBuf::from(e.file_name()))
            .take(MAX_FILES)
            .collect(),
    };
    let mut budget = MAX_TEXTS;
    let texts: Vec<(PathBuf, String)> = files
        .iter()
        .cloned()
        .chain(beside)
        .filter_map(|f| {
            let text = read_text(&dir.join(&f), &mut budget)?;
            Some((f, text))
        })
        .collect();
    let body_words = words(body);
    let mut by_name = Mentions::default();
    let mut by_module = Mentions::default();
    let mut index_of = HashMap::new();
    for (i, (path, text)) in texts.iter().enumerate() {
        index_of.insert(path, i);
        by_name.add(i, text);
        if is_code(path) {
            by_module.add(i, text);
        }
    }
    let mentioned = |file: &PathBuf| {
        let slash = file.to_string_lossy().replace('\\', "/");
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let stem = file
            .file_stem()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let index = index_of.get(file).copied();
        // `python -m scripts.fill` names `scripts/fill.py`.
        let module = is_code(file).then(|| {
            let mut m = slash.replace('/', ".");
            m.truncate(m.len() - file.extension().map_or(0, |e| e.len() + 1));
            m
        });
        referenced.iter().any(|r| file.starts_with(r))
            || body_words.contains(slash.as_str())
            || body_words.contains(name.as_ref())
            || module.is_some_and(|m| body_words.contains(m.as_str()))
            || by_name.elsewhere(&name, index)
            || (is_code(file) && by_module.elsewhere(&stem, index))
    };
    // Unmentioned files by directory.
    let mut by_dir: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for file in files.iter().filter(|f| !mentioned(f)) {
        let parent = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        by_dir.entry(parent).or_default().push(name);
    }
    for (parent, names) in by_dir {
        let folder = parent.to_string_lossy().replace('\\', "/");
        if names.len() >= GROUP {
            let mut shown: Vec<String> = names
                .iter()
                .take(LISTED)
                .map(|n| format!("`{n}`"))
                .collect();
            if names.len() > LISTED {
                shown.push(format!("and {} more", names.len() - LISTED));
            }
            ctx.findings.push(
                Finding::new(
                    &UNREFERENCED_FILE,
                    ctx.open,
                    "",
                    format!(
                        "{} files in `{folder}/` ({}) are in the skill directory, but nothing in SKILL.md mentions them: the model will not know they are there",
                        names.len(),
                        shown.join(", ")
                    ),
                )
                .with_help(format!("link them or the folder from the body (`[…]({folder}/)`), or delete them")),
            );
            continue;
        }
        for name in names {
            let slash = format!("{folder}/{name}");
            ctx.findings.push(
                Finding::new(
                    &UNREFERENCED_FILE,
                    ctx.open,
                    "",
                    format!("`{slash}` is in the skill directory, but nothing in SKILL.md mentions it: the model will not know it is there"),
                )
                .with_help(format!("link it from the body (`[…]({slash})`), or delete it")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_paths_names_and_modules() {
        let w = words(
            "from helpers.merge_runs import x; run `./scripts/fill.py`. def _merge_runs_in(c):",
        );
        for word in [
            "helpers.merge_runs",
            "merge_runs",
            "scripts/fill.py",
            "fill.py",
            "fill",
            "_merge_runs_in",
        ] {
            assert!(w.contains(word), "{word}");
        }
        assert!(!w.contains("merge_run"));
        assert!(!w.contains("scripts/fill.py`"));
    }

    /// The listing and `lstat` give the answers `canonicalize` gives, for
    /// plain paths, missing ones, paths through a file, and symbolic links
    /// inside and out of the skill directory.
    #[cfg(unix)]
    #[test]
    fn resolving_from_the_listing_agrees_with_canonicalize() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().expect("temp dir");
        let outside = tmp.path().join("outside");
        let skill = tmp.path().join("skill");
        for d in [
            &outside,
            &skill.join("references/deep"),
            &skill.join("assets"),
        ] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        for f in ["references/a.md", "references/deep/b.md", "SKILL.md"] {
            std::fs::write(skill.join(f), "x").expect("write");
        }
        std::fs::write(outside.join("secret.md"), "x").expect("write");
        symlink(&outside, skill.join("scripts")).expect("symlink");
        symlink("a.md", skill.join("references/alias.md")).expect("symlink");
        symlink(
            outside.join("secret.md"),
            skill.join("references/deep/out.md"),
        )
        .expect("symlink");
        symlink("missing", skill.join("assets/dangling")).expect("symlink");
        let listing = Listing::read(&skill);
        let canonical_dir = skill.canonicalize().expect("canonical");
        let by_canonicalize = |rel: &Path| match skill.join(rel).canonicalize() {
            Err(_) => Resolved::Missing,
            Ok(real) if real.starts_with(&canonical_dir) => Resolved::Inside,
            Ok(_) => Resolved::Outside,
        };
        let cases = [
            "",
            "SKILL.md",
            "references",
            "references/a.md",
            "references/deep/b.md",
            "references/nope.md",
            "references/a.md/x",
            "SKILL.md/x",
            "nope/x.md",
            "scripts",
            "scripts/secret.md",
            "scripts/nope.md",
            "references/alias.md",
            "references/deep/out.md",
            "assets/dangling",
        ];
        let mut resolver = Resolver {
            dir: &skill,
            listing: &listing,
            canonical_dir: None,
        };
        let mut seen = BTreeSet::new();
        for case in cases {
            let rel = PathBuf::from(case);
            let got = resolver.resolve(&rel);
            assert_eq!(got, by_canonicalize(&rel), "{case}");
            seen.insert(format!("{got:?}"));
        }
        assert_eq!(seen.len(), 3, "every answer is tested: {seen:?}");
        assert!(listing.is_file("SKILL.md"));
        assert!(!listing.is_file("references"));
        assert!(!listing.is_file("nope"));
        // A directory that cannot be read answers from the disk.
        let unread = Listing::read(&tmp.path().join("nope"));
        assert!(unread.entries.is_none());
        assert!(!unread.is_file("SKILL.md"));
    }

    #[test]
    fn bodies_without_link_syntax_or_folder_paths_are_not_parsed() {
        for body in [
            "[a](b)",
            "![a](b)",
            "[a][r]\n\n[r]: x",
            "[a][]",
            "[a]\n\n[a]: x",
            "<https://x>",
            "<a@b.c>",
            "`scripts/a.py`",
            "`references/a.md`",
            "`assets/a.png`",
        ] {
            assert!(may_point(body), "{body}");
        }
        for body in [
            "# Title\n\n- [ ] a task\n- [x] done [sic]\n",
            "`src/a.py` and text",
            "",
        ] {
            assert!(!may_point(body), "{body}");
            assert!(targets(body, 0).is_empty());
        }
    }

    #[test]
    fn relative_paths_stay_inside() {
        assert_eq!(
            relative("references/../scripts/a.py"),
            Ok(PathBuf::from("scripts/a.py"))
        );
        assert!(relative("../x.md").is_err());
        assert!(relative("a/../../x.md").is_err());
        assert!(relative("/etc/passwd").is_err());
        assert!(relative("C:\\x").is_err());
        assert!(relative("~/x").is_err());
    }

    #[test]
    fn schemes_and_escapes() {
        assert!(has_scheme("https://x"));
        assert!(has_scheme("mailto:a@b"));
        assert!(!has_scheme("C:/x"));
        assert!(!has_scheme("references/a.md"));
        assert_eq!(percent_decode("a%20b%zz"), "a b%zz");
    }

    #[test]
    fn targets_are_links_images_and_folder_paths_in_code() {
        let body = "See [the form](references/forms.md#top) and ![x](assets/a.png).\nRun `python scripts/fill.py --in a` or `scripts/*.py`.\n```\nscripts/in_block.py\n```\n";
        let found: Vec<(String, &str)> = targets(body, 0)
            .into_iter()
            .map(|t| (t.text, &body[t.span.start..t.span.end]))
            .collect();
        assert_eq!(
            found,
            [
                ("references/forms.md#top".to_string(), "the form"),
                ("assets/a.png".to_string(), "x"),
                ("scripts/fill.py".to_string(), "scripts/fill.py"),
            ]
        );
    }
}
