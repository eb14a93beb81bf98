//! Reading `toolsmith.toml` with the `toml` crate's spanned tree
//! ([`toml::de::DeTable`]), so that every problem is a positioned finding.

use super::{
    Allow, At, Config, INVALID_VALUE, Level, MISSING_REASON, Override, RulePattern, RuleSetting,
    SYNTAX, Scope, UNKNOWN_KEY, UNKNOWN_RULE, closest_rule,
};
use crate::diagnostic::Finding;
use crate::options::{DialectChoice, Profiles};
use crate::provider::Provider;
use crate::rules::Rule;
use crate::source::{Source, Span};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::path::PathBuf;
use std::sync::Arc;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The top-level keys.
pub const KEYS: &[&str] = &[
    "profile",
    "dialect",
    "providers",
    "exclude",
    "rules",
    "overrides",
    "allow",
];
/// The keys of an `[[overrides]]` entry.
pub const OVERRIDE_KEYS: &[&str] = &["paths", "profile", "dialect", "providers", "rules"];
/// The keys of an `[[allow]]` entry.
pub const ALLOW_KEYS: &[&str] = &["path", "rule", "pointer", "reason"];

/// The `dialect` values.
pub const DIALECTS: &[(&str, DialectChoice)] = &[
    ("chai", DialectChoice::Chai),
    ("agentcli", DialectChoice::Agentcli),
    ("describe", DialectChoice::Describe),
    ("skill", DialectChoice::Skill),
];

/// Parses the text of a `toolsmith.toml` printed as `display` and sitting
/// in `dir` (absolute). Never fails: problems are [`Config::findings`], and
/// a file with a syntax error is used as if it were empty.
///
/// ```
/// use toolsmith_manifest::config::{parse, Level};
/// use toolsmith_manifest::Severity;
/// let config = parse("toolsmith.toml", "/repo".into(), "exclud = []\n[rules]\n\"skill/*\" = \"error\"\n");
/// assert_eq!(config.top.rules[0].level, Level::On(Severity::Error));
/// assert_eq!(config.findings[0].rule.id, "config/unknown-key");
/// assert!(config.findings[0].message.contains("did you mean `exclude`"));
/// ```
pub fn parse(display: &str, dir: PathBuf, text: &str) -> Config {
    let source = Arc::new(Source::new(display, text));
    let mut reader = Reader {
        text: Arc::clone(&source),
        findings: Vec::new(),
        ids: crate::registry::all().iter().map(|r| r.id).collect(),
    };
    let mut config = Config {
        source,
        dir,
        top: Scope::default(),
        exclude: Vec::new(),
        exclude_set: GlobSet::empty(),
        overrides: Vec::new(),
        allow: Vec::new(),
        findings: Vec::new(),
    };
    match DeTable::parse(text) {
        Err(e) => {
            let span = e
                .span()
                .map_or(Span::default(), |r| Span::new(r.start, r.end));
            let message = e.message().trim().to_string();
            reader.findings.push(
                Finding::new(&SYNTAX, span, "", format!("invalid TOML: {message}"))
                    .with_help("fix the syntax; until then the file is not used"),
            );
        }
        Ok(table) => reader.top(table.get_ref(), &mut config),
    }
    config.findings = reader.findings;
    config
}

struct Reader {
    text: Arc<Source>,
    findings: Vec<Finding>,
    ids: Vec<&'static str>,
}

fn span_of<T>(s: &Spanned<T>) -> Span {
    let r = s.span();
    Span::new(r.start, r.end)
}

/// Escapes a pointer segment (RFC 6901).
fn segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

impl Reader {
    fn push(
        &mut self,
        rule: &'static Rule,
        span: Span,
        pointer: String,
        message: String,
        help: Option<String>,
    ) {
        let mut f = Finding::new(rule, span, pointer, message);
        f.help = help;
        self.findings.push(f);
    }

    fn unknown_key(
        &mut self,
        key: &Spanned<std::borrow::Cow<'_, str>>,
        known: &[&str],
        pointer: &str,
        place: &str,
    ) {
        let name = key.get_ref().as_ref();
        let hint = crate::suggest::closest(name, known.iter().copied())
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_default();
        self.push(
            &UNKNOWN_KEY,
            span_of(key),
            format!("{pointer}/{}", segment(name)),
            format!("unknown key `{name}` in {place}{hint}"),
            Some(format!("the keys are {}", known.join(", "))),
        );
    }

    /// The span of an array-of-tables entry without the blank lines before its header.
    fn header(&self, entry: &Spanned<DeValue<'_>>) -> Span {
        let span = span_of(entry);
        let text = self.text.text().get(span.start..span.end).unwrap_or("");
        let skip = text.len() - text.trim_start().len();
        Span::new(span.start + skip, span.end)
    }

    fn invalid(&mut self, span: Span, pointer: &str, message: String, help: impl Into<String>) {
        self.push(
            &INVALID_VALUE,
            span,
            pointer.to_string(),
            message,
            Some(help.into()),
        );
    }

    fn string<'v>(
        &mut self,
        key: &str,
        value: &'v Spanned<DeValue<'_>>,
        pointer: &str,
        example: &str,
    ) -> Option<&'v str> {
        match value.get_ref() {
            DeValue::String(s) => Some(s.as_ref()),
            other => {
                self.invalid(
                    span_of(value),
                    pointer,
                    format!("`{key}` must be a string, found {}", type_name(other)),
                    format!("write it as `{key} = {example}`"),
                );
                None
            }
        }
    }

    fn strings(
        &mut self,
        key: &str,
        value: &Spanned<DeValue<'_>>,
        pointer: &str,
        example: &str,
    ) -> Vec<At<String>> {
        let DeValue::Array(items) = value.get_ref() else {
            self.invalid(
                span_of(value),
                pointer,
                format!(
                    "`{key}` must be an array of strings, found {}",
                    type_name(value.get_ref())
                ),
                format!("write it as `{key} = {example}`"),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = format!("{pointer}/{i}");
            match item.get_ref() {
                DeValue::String(s) => out.push(At {
                    value: s.to_string(),
                    span: span_of(item),
                }),
                other => self.invalid(
                    span_of(item),
                    &p,
                    format!(
                        "`{key}` must list strings; item {i} is {}",
                        type_name(other)
                    ),
                    format!("write it as `{key} = {example}`"),
                ),
            }
        }
        out
    }

    fn globs(&mut self, key: &str, patterns: &[At<String>], pointer: &str) -> GlobSet {
        let mut set = GlobSetBuilder::new();
        for (i, p) in patterns.iter().enumerate() {
            match GlobBuilder::new(&p.value).literal_separator(true).build() {
                Ok(g) => {
                    set.add(g);
                }
                Err(e) => self.invalid(
                    p.span,
                    &format!("{pointer}/{i}"),
                    format!("`{key}` pattern `{}` is not a valid glob: {}", p.value, e.kind()),
                    "globs are matched against the path below the directory of toolsmith.toml; `*` stays within a directory, `**` crosses them",
                ),
            }
        }
        set.build().unwrap_or_else(|_| GlobSet::empty())
    }

    fn top(&mut self, table: &DeTable<'_>, config: &mut Config) {
        for (key, value) in table {
            let name = key.get_ref().as_ref();
            let pointer = format!("/{}", segment(name));
            match name {
                "profile" | "dialect" | "providers" | "rules" => {
                    self.scope_key(name, value, &pointer, &mut config.top);
                }
                "exclude" => {
                    config.exclude = self.strings(name, value, &pointer, "[\"vendor/**\"]");
                    config.exclude_set = self.globs(name, &config.exclude, &pointer);
                }
                "overrides" => {
                    for (i, entry) in self.tables(name, value, &pointer, "[[overrides]]") {
                        if let Some(o) = self.override_entry(entry, &format!("{pointer}/{i}")) {
                            config.overrides.push(o);
                        }
                    }
                }
                "allow" => {
                    for (i, entry) in self.tables(name, value, &pointer, "[[allow]]") {
                        if let Some(a) = self.allow_entry(entry, &format!("{pointer}/{i}")) {
                            config.allow.push(a);
                        }
                    }
                }
                _ => self.unknown_key(key, super::KEYS, "", "toolsmith.toml"),
            }
        }
    }

    /// The entries of an array of tables.
    fn tables<'v, 'i>(
        &mut self,
        key: &str,
        value: &'v Spanned<DeValue<'i>>,
        pointer: &str,
        header: &str,
    ) -> Vec<(usize, &'v Spanned<DeValue<'i>>)> {
        let DeValue::Array(items) = value.get_ref() else {
            self.invalid(
                span_of(value),
                pointer,
                format!(
                    "`{key}` must be an array of tables, found {}",
                    type_name(value.get_ref())
                ),
                format!("write each entry under a `{header}` header"),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if item.get_ref().is_table() {
                out.push((i, item));
            } else {
                self.invalid(
                    span_of(item),
                    &format!("{pointer}/{i}"),
                    format!(
                        "`{key}` entry {i} must be a table, found {}",
                        type_name(item.get_ref())
                    ),
                    format!("write each entry under a `{header}` header"),
                );
            }
        }
        out
    }

    /// `profile`, `dialect`, `providers` or `rules`, at the top level or in an override.
    fn scope_key(
        &mut self,
        name: &str,
        value: &Spanned<DeValue<'_>>,
        pointer: &str,
        scope: &mut Scope,
    ) {
        match name {
            "profile" => {
                if let Some(s) = self.string(name, value, pointer, "\"claude-code\"") {
                    match Profiles::parse(s) {
                        Ok(p) => scope.profile = Some(At { value: p, span: span_of(value) }),
                        Err(e) => self.invalid(span_of(value), pointer, format!("`profile`: {e}"), "name one or more profiles, comma-separated (`\"claude-code,copilot\"`)"),
                    }
                }
            }
            "dialect" => {
                if let Some(s) = self.string(name, value, pointer, "\"chai\"") {
                    match DIALECTS.iter().find(|(n, _)| *n == s) {
                        Some((_, d)) => {
                            scope.dialect = Some(At {
                                value: *d,
                                span: span_of(value),
                            })
                        }
                        None => {
                            let names: Vec<&str> = DIALECTS.iter().map(|(n, _)| *n).collect();
                            let hint = crate::suggest::closest(s, names.iter().copied())
                                .map(|n| format!("; did you mean `{n}`?"))
                                .unwrap_or_default();
                            self.invalid(
                                span_of(value),
                                pointer,
                                format!("unknown dialect `{s}`{hint}"),
                                format!("the dialects are {}", names.join(", ")),
                            );
                        }
                    }
                }
            }
            "providers" => {
                let names =
                    self.strings(name, value, pointer, "[\"openai-strict\", \"anthropic\"]");
                let mut providers = Vec::new();
                for (i, n) in names.iter().enumerate() {
                    match n.value.parse::<Provider>() {
                        Ok(p) if !providers.contains(&p) => providers.push(p),
                        Ok(_) => {}
                        Err(e) => {
                            let all = Provider::ALL.map(Provider::name);
                            let hint = crate::suggest::closest(&n.value, all)
                                .map(|s| format!("; did you mean `{s}`?"))
                                .unwrap_or_default();
                            self.invalid(
                                n.span,
                                &format!("{pointer}/{i}"),
                                format!("unknown provider `{}`{hint}", e.0),
                                format!("the providers are {}", Provider::names()),
                            );
                        }
                    }
                }
                if names.len() == value.get_ref().as_array().map_or(0, |a| a.len()) {
                    scope.providers = Some(At {
                        value: providers,
                        span: span_of(value),
                    });
                }
            }
            "rules" => {
                let DeValue::Table(table) = value.get_ref() else {
                    self.invalid(
                        span_of(value),
                        pointer,
                        format!(
                            "`rules` must be a table, found {}",
                            type_name(value.get_ref())
                        ),
                        "write `[rules]` and under it `\"skill/vendor-field\" = \"off\"`",
                    );
                    return;
                };
                for (key, written) in table {
                    let id = key.get_ref().as_ref();
                    let p = format!("{pointer}/{}", segment(id));
                    let Some(pattern) = self.rule_pattern(id, span_of(key), &p) else {
                        continue;
                    };
                    let level = match written.get_ref() {
                        DeValue::String(s) => {
                            match Level::parse(s) {
                                Some(l) => l,
                                None => {
                                    let hint = Level::NAMES
                                        .into_iter()
                                        .find(|n| !s.is_empty() && n.starts_with(&**s))
                                        .or_else(|| crate::suggest::closest(s, Level::NAMES))
                                        .map(|n| format!("; did you mean `{n}`?"))
                                        .unwrap_or_default();
                                    self.invalid(span_of(written), &p, format!("`{s}` is not a severity{hint}"), "the severities are \"off\", \"note\", \"warning\", \"error\"");
                                    continue;
                                }
                            }
                        }
                        other => {
                            self.invalid(
                                span_of(written),
                                &p,
                                format!(
                                    "the severity of `{id}` must be a string, found {}",
                                    type_name(other)
                                ),
                                "the severities are \"off\", \"note\", \"warning\", \"error\"",
                            );
                            continue;
                        }
                    };
                    let span = Span::new(key.span().start, written.span().end);
                    scope.rules.push(RuleSetting {
                        pattern,
                        level,
                        span,
                    });
                }
            }
            _ => {}
        }
    }

    /// Checks a rule id or pattern against the registry.
    fn rule_pattern(&mut self, text: &str, span: Span, pointer: &str) -> Option<RulePattern> {
        let (pattern, finding) = check_rule_pattern(text, &self.ids);
        if let Some((message, help)) = finding {
            self.push(
                &UNKNOWN_RULE,
                span,
                pointer.to_string(),
                message,
                Some(help),
            );
        }
        pattern
    }

    fn override_entry(&mut self, entry: &Spanned<DeValue<'_>>, pointer: &str) -> Option<Override> {
        let table = entry.get_ref().as_table()?;
        let span = self.header(entry);
        let mut scope = Scope::default();
        let mut paths = None;
        for (key, value) in table {
            let name = key.get_ref().as_ref();
            let p = format!("{pointer}/{}", segment(name));
            match name {
                "paths" => paths = Some(self.strings(name, value, &p, "[\"skills/**\"]")),
                "profile" | "dialect" | "providers" | "rules" => {
                    self.scope_key(name, value, &p, &mut scope)
                }
                _ => self.unknown_key(
                    key,
                    super::OVERRIDE_KEYS,
                    pointer,
                    "an `[[overrides]]` entry",
                ),
            }
        }
        let Some(paths) = paths.filter(|p| !p.is_empty()) else {
            self.invalid(
                span,
                pointer,
                "an `[[overrides]]` entry without `paths` applies to nothing".to_string(),
                "add `paths = [\"skills/**\"]` (globs below the directory of toolsmith.toml)",
            );
            return None;
        };
        let matcher = self.globs("paths", &paths, &format!("{pointer}/paths"));
        Some(Override {
            paths,
            matcher,
            scope,
            span,
        })
    }

    fn allow_entry(&mut self, entry: &Spanned<DeValue<'_>>, pointer: &str) -> Option<Allow> {
        let table = entry.get_ref().as_table()?;
        let span = self.header(entry);
        let (mut path, mut rule, mut pointer_value, mut reason) = (None, None, None, None);
        for (key, value) in table {
            let name = key.get_ref().as_ref();
            let p = format!("{pointer}/{}", segment(name));
            match name {
                "path" => {
                    path = self
                        .string(name, value, &p, "\"tools/weather.tools.json\"")
                        .map(|s| At {
                            value: s.to_string(),
                            span: span_of(value),
                        })
                }
                "rule" => {
                    if let Some(s) = self.string(name, value, &p, "\"json/duplicate-key\"") {
                        rule = self.rule_pattern(s, span_of(value), &p).map(|r| At {
                            value: r,
                            span: span_of(value),
                        });
                    }
                }
                "pointer" => {
                    if let Some(s) = self.string(name, value, &p, "\"/tools/0/name\"") {
                        if !s.is_empty() && !s.starts_with('/') {
                            self.invalid(span_of(value), &p, format!("`pointer` `{s}` is not a JSON pointer"), "a JSON pointer is empty (the document) or starts with `/`, like `/tools/0/name`; `toolsmith lint --format json` prints each finding's");
                        } else {
                            pointer_value = Some(At {
                                value: s.to_string(),
                                span: span_of(value),
                            });
                        }
                    }
                }
                "reason" => {
                    reason = self
                        .string(name, value, &p, "\"the vendor field is read by our host\"")
                        .map(str::trim)
                        .map(str::to_string)
                }
                _ => self.unknown_key(key, super::ALLOW_KEYS, pointer, "an `[[allow]]` entry"),
            }
        }
        let mut missing = Vec::new();
        if path.is_none() && !table.keys().any(|k| k.get_ref() == "path") {
            missing.push("`path`");
        }
        if rule.is_none() && !table.keys().any(|k| k.get_ref() == "rule") {
            missing.push("`rule`");
        }
        if !missing.is_empty() {
            self.invalid(span, pointer, format!("this `[[allow]]` entry has no {}", missing.join(" and ")), "an entry names the file (`path`), the rule (`rule`), optionally the JSON `pointer`, and the `reason`");
        }
        let reason = match reason {
            Some(r) if !r.is_empty() => r,
            _ => {
                self.push(
                    &MISSING_REASON,
                    span,
                    pointer.to_string(),
                    "this `[[allow]]` entry gives no `reason`".to_string(),
                    Some("say why the finding is accepted: `reason = \"…\"`".to_string()),
                );
                String::new()
            }
        };
        let (path, rule) = (path?, rule?);
        let matcher = match GlobBuilder::new(&path.value)
            .literal_separator(true)
            .build()
        {
            Ok(g) => g.compile_matcher(),
            Err(e) => {
                self.invalid(path.span, &format!("{pointer}/path"), format!("`path` `{}` is not a valid glob: {}", path.value, e.kind()), "write the path below the directory of toolsmith.toml, like `tools/weather.tools.json`");
                return None;
            }
        };
        Some(Allow {
            path,
            matcher,
            rule,
            pointer: pointer_value,
            reason,
            span,
        })
    }
}

/// Checks a rule id or `prefix*` pattern against `ids`: the pattern when it
/// names at least one rule, else a message and help with a did-you-mean.
pub fn check_rule_pattern(
    text: &str,
    ids: &[&'static str],
) -> (Option<RulePattern>, Option<(String, String)>) {
    let pattern = RulePattern::new(text);
    if pattern.matches_any(ids.iter().copied()) {
        return (Some(pattern), None);
    }
    let suggestion = match &pattern {
        RulePattern::Exact(id) => closest_rule(id, ids).map(str::to_string),
        RulePattern::Prefix(p) => {
            let mut prefixes: Vec<String> = ids
                .iter()
                .filter_map(|id| id.split_once('/').map(|(d, _)| format!("{d}/")))
                .collect();
            prefixes.dedup();
            crate::suggest::closest(p, prefixes.iter().map(String::as_str)).map(|s| format!("{s}*"))
        }
    };
    let hint = suggestion
        .map(|s| format!("; did you mean `{s}`?"))
        .unwrap_or_default();
    let what = match pattern {
        RulePattern::Exact(_) => "no rule has the id",
        RulePattern::Prefix(_) => "no rule id starts like",
    };
    (
        None,
        Some((
            format!("{what} `{text}`{hint}"),
            "`toolsmith rules` lists every rule id; `dialect/*` covers a whole dialect".to_string(),
        )),
    )
}
