//! Argument mappings (`execution[].args[]`): kinds, the parameter each one
//! reads, `flagifboolean` flags, optional positionals, flag dashes.

use super::Version;
use super::allowlist::Allowlist;
use super::fields::{expected_list, missing, show};
use super::tools::{Property, ToolInfo};
use super::{deny, resolver};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::model::{ArgKind, ArgMapping, ResolveCommand};
use crate::rules::Rule;
use crate::suggest::closest;
use crate::tree::Node;

pub static UNKNOWN_KIND: Rule = Rule::error(
    "chai/unknown-kind",
    "chai",
    "an argument mapping's `kind` is not one chai knows (kinds are lowercase: `flagifboolean`, not `flagIfBoolean`)",
);
pub static PARAM_NOT_IN_PARAMETERS: Rule = Rule::error(
    "chai/param-not-in-parameters",
    "chai",
    "an argument mapping reads a parameter that the tool's `parameters` do not declare",
);
pub static PARAM_FIXED_VALUE: Rule = Rule::warning(
    "chai/param-fixed-value",
    "chai",
    "a v0.5 mapping reads a parameter the schema does not declare, and `absentDefault` or `optional` supplies it: the model can never set it (a fixed value)",
);
pub static LITERAL_WITHOUT_VALUE: Rule = Rule::warning(
    "chai/literal-without-value",
    "chai",
    "a `literal` mapping has no `value`; chai pushes nothing for it",
);
pub static SECOND_STDIN: Rule = Rule::warning(
    "chai/second-stdin",
    "chai",
    "an execution spec has more than one `stdin` mapping; chai reads only the first",
);
pub static TEMPFILE_ORDER: Rule = Rule::warning(
    "chai/tempfile-order",
    "chai",
    "a `tempfile` mapping is followed by mappings that emit argv; chai appends temp-file tokens after all other argv, so the order differs from `args`",
);
pub static FLAGIFBOOLEAN_NOT_BOOLEAN: Rule = Rule::error(
    "chai/flagifboolean-not-boolean",
    "chai",
    "a `flagifboolean` mapping reads a parameter whose schema type is not `boolean`",
);
pub static FLAGIFBOOLEAN_WITHOUT_FLAGS: Rule = Rule::error(
    "chai/flagifboolean-without-flags",
    "chai",
    "a `flagifboolean` mapping sets neither `flagIfTrue` nor `flagIfFalse` (it never emits anything)",
);
pub static FLAGIFBOOLEAN_ABSENT_IS_FALSE: Rule = Rule::warning(
    "chai/flagifboolean-absent-is-false",
    "chai",
    "an optional `flagifboolean` parameter with `flagIfFalse`: chai emits `flagIfFalse` whenever the model omits it",
);
pub static POSITIONAL_OPTIONAL: Rule = Rule::warning(
    "chai/positional-optional",
    "chai",
    "a `positional` mapping reads a parameter the schema marks optional; chai always requires positionals",
);
pub static FLAG_DASHES: Rule = Rule::warning(
    "chai/flag-dashes",
    "chai",
    "a legacy `flag` starts with dashes; chai prepends `--` anyway (`--x` becomes `----x`)",
);
pub static NORMALIZE_NEWLINES_IGNORED: Rule = Rule::warning(
    "chai/normalize-newlines-ignored",
    "chai",
    "`normalizeNewlines` was removed in chai v0.5 and is ignored there",
);

/// The argument kinds legacy chai knows.
pub const LEGACY_KINDS: &[&str] = &["positional", "flag", "flagifboolean"];
/// The argument kinds chai v0.5 knows.
pub const V05_KINDS: &[&str] = &[
    "positional",
    "flag",
    "flagifboolean",
    "stdin",
    "workingdir",
    "tempfile",
    "literal",
];

/// What the checks of one mapping need to know about its surroundings.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The format version.
    pub version: Version,
    /// The tool the execution spec runs, when it is declared.
    pub tool: Option<&'a ToolInfo>,
    /// The allowlist, when it is usable.
    pub allowlist: Option<&'a Allowlist>,
    /// The execution spec's `binary`.
    pub binary: Option<&'a Node>,
    /// The text of the file (positions inside strings).
    pub text: &'a str,
    /// v0.5 `paramCondition.present`: parameters the spec only runs with.
    pub present: &'a [Node],
}

/// The outcome of checking one mapping.
#[derive(Debug, Clone, PartialEq)]
pub enum Mapped {
    /// The mapping, for the model (boxed: it is large).
    Arg(Box<ArgMapping>),
    /// Unusable (errors reported).
    Broken,
}

fn string<'a>(node: &'a Node, key: &str) -> Option<(&'a Node, &'a str)> {
    let value = node.get(key)?;
    Some((value, value.as_str()?))
}

/// Checks one argument mapping; `label` is `execution[i].args[j]`.
pub fn check(node: &Node, label: &str, cx: &Context<'_>, findings: &mut Findings) -> Mapped {
    if node.as_object().is_none() {
        return Mapped::Broken;
    }
    let kind_node = node.get("kind").filter(|k| !k.is_null());
    let Some(kind) = kind_node.map_or(Some("positional"), Node::as_str) else {
        return Mapped::Broken;
    };
    let kinds = match cx.version {
        Version::Legacy => LEGACY_KINDS,
        Version::V05 => V05_KINDS,
    };
    let known = kinds.contains(&kind);
    if let (false, Some(k)) = (known, kind_node) {
        findings.push(unknown_kind(k, kind, kinds, cx.version));
    }
    check_param_present(node, kind, known, label, cx.version, findings);
    if let (Some((pnode, pname)), Some(tool), true) =
        (string(node, "param"), cx.tool, kind != "literal")
    {
        check_property(node, (pnode, pname), kind, tool, label, cx, findings);
    }
    if kind == "flagifboolean" {
        check_flags_set(node, kind_node, label, findings);
    }
    if known && kind == "literal" && node.get("value").is_none_or(Node::is_null) {
        let at = kind_node.unwrap_or(node);
        findings.push(
            Finding::new(
                &LITERAL_WITHOUT_VALUE,
                at.span,
                at.pointer(),
                format!("{label}: literal mapping without `value`; chai pushes nothing for it"),
            )
            .with_help("add \"value\": \"<the token to pass>\", or remove the mapping"),
        );
    }
    check_version_specifics(node, label, cx.version, findings);
    if cx.version == Version::V05 {
        deny::check(node, label, cx.text, findings);
    }
    if let (Some((onode, _)), Some(allowlist), Some(binary)) =
        (string(node, "subcommandOverride"), cx.allowlist, cx.binary)
    {
        allowlist.check_pair(binary, Some(onode), label, findings);
    }
    let resolve_command = node.get("resolveCommand").and_then(|r| {
        resolver::check(
            r,
            &format!("{label}.resolveCommand"),
            cx.version,
            cx.allowlist,
            findings,
        )
    });
    let deny_resolve_command = node.get("denyResolveCommand").and_then(|deny| {
        resolver::check(
            deny,
            &format!("{label}.denyResolveCommand"),
            cx.version,
            cx.allowlist,
            findings,
        )
    });
    model(
        node,
        kind,
        known,
        resolve_command,
        deny_resolve_command,
        cx.version,
    )
}

/// Legacy serde requires `param` whatever the kind; v0.5 for every known kind but `literal`.
fn check_param_present(
    node: &Node,
    kind: &str,
    known: bool,
    label: &str,
    version: Version,
    findings: &mut Findings,
) {
    let needs_param = match version {
        Version::Legacy => true,
        Version::V05 => known && kind != "literal",
    };
    if node.get("param").is_some() || !needs_param {
        return;
    }
    let f = missing(node, "param", version, label);
    findings.push(match version {
        Version::Legacy => f,
        Version::V05 => f.with_help(format!(
            "every kind except `literal` reads a parameter; chai panics on a `{kind}` mapping without one"
        )),
    });
}

/// The checks against the tool's `parameters`: the property exists, a
/// `flagifboolean` one is boolean (U1 when optional), a positional one is required (U3).
fn check_property(
    node: &Node,
    (pnode, pname): (&Node, &str),
    kind: &str,
    tool: &ToolInfo,
    label: &str,
    cx: &Context<'_>,
    findings: &mut Findings,
) {
    let (schema, required) = match tool.property(pname) {
        Property::Unknown => return,
        Property::Absent => {
            findings.push(match fixed_value(node, cx.version) {
                Some(how) => param_fixed(pnode, pname, tool, label, &how),
                None => param_absent(pnode, pname, tool, label),
            });
            return;
        }
        Property::Present(schema, required) => (schema, required),
    };
    let absent_default = node.get("absentDefault").is_some_and(|n| !n.is_null());
    if kind == "flagifboolean" {
        check_boolean(pnode, pname, schema, label, findings);
        if let (Some((fnode, flag)), false, false) =
            (string(node, "flagIfFalse"), required, absent_default)
        {
            findings.push(absent_is_false(fnode, pname, flag, label, cx.version));
        }
    }
    let optional = node.get("optional").and_then(Node::as_bool) == Some(true);
    let guaranteed = cx.present.iter().any(|n| n.as_str() == Some(pname));
    if kind == "positional" && !required && !optional && !absent_default && !guaranteed {
        findings.push(positional_optional(pnode, pname, label, cx.version));
    }
}

/// A `flagifboolean` mapping must emit something.
fn check_flags_set(node: &Node, kind_node: Option<&Node>, label: &str, findings: &mut Findings) {
    let sets = |key: &str| string(node, key).is_some();
    if sets("flagIfTrue") || sets("flagIfFalse") || sets("subcommandOverride") {
        return;
    }
    let at = kind_node.unwrap_or(node);
    let param = string(node, "param").map_or("?", |(_, p)| p);
    findings.push(
        Finding::new(
            &FLAGIFBOOLEAN_WITHOUT_FLAGS,
            at.span,
            at.pointer(),
            format!(
                "{label}: flagifboolean param {} sets neither flagIfTrue nor flagIfFalse; it never emits anything",
                show(param)
            ),
        )
        .with_help("set `flagIfTrue` and/or `flagIfFalse` to the flag to pass, dashes included (e.g. \"--force\")"),
    );
}

/// D7 (legacy: dashes in `flag` are doubled) and D9 (v0.5: `normalizeNewlines` is gone).
fn check_version_specifics(node: &Node, label: &str, version: Version, findings: &mut Findings) {
    match version {
        Version::Legacy => {
            let Some((fnode, f)) = string(node, "flag").filter(|(_, f)| f.starts_with('-')) else {
                return;
            };
            findings.push(
                Finding::new(
                    &FLAG_DASHES,
                    fnode.span,
                    fnode.pointer(),
                    format!(
                        "{label}: flag {} starts with dashes; chai prepends \"--\" and passes \"--{f}\"",
                        show(f)
                    ),
                )
                .with_help(format!(
                    "write the name without dashes: {}",
                    show(f.trim_start_matches('-'))
                )),
            );
        }
        Version::V05 => {
            let Some(m) = node
                .member("normalizeNewlines")
                .filter(|m| !m.value.is_null())
            else {
                return;
            };
            findings.push(
                Finding::new(
                    &NORMALIZE_NEWLINES_IGNORED,
                    m.key_span,
                    m.value.pointer(),
                    format!(
                        "{label}: `normalizeNewlines` is ignored by chai ≥ v0.5 (it was removed)"
                    ),
                )
                .with_help(
                    "remove it; the value is passed with its literal `\\n` and `\\t` sequences",
                ),
            );
        }
    }
}

/// The mapping for the model.
fn model(
    node: &Node,
    kind: &str,
    known: bool,
    resolve_command: Option<ResolveCommand>,
    deny_resolve_command: Option<ResolveCommand>,
    version: Version,
) -> Mapped {
    let kind = match kind {
        "positional" => ArgKind::Positional,
        "flag" => ArgKind::Flag,
        "flagifboolean" => ArgKind::FlagIfBoolean,
        "stdin" if known => ArgKind::Stdin,
        "workingdir" if known => ArgKind::WorkingDir,
        "tempfile" if known => ArgKind::TempFile,
        "literal" if known => ArgKind::Literal,
        _ => return Mapped::Broken,
    };
    let param = match (string(node, "param"), kind) {
        (Some((_, p)), _) => p.to_string(),
        (None, ArgKind::Literal) => String::new(),
        (None, _) => return Mapped::Broken,
    };
    let get = |key: &str| string(node, key).map(|(_, s)| s.to_string());
    let flag = |key: &str| node.get(key).and_then(Node::as_bool) == Some(true);
    let v05 = version == Version::V05;
    Mapped::Arg(Box::new(ArgMapping {
        param,
        kind,
        flag: get("flag").map(|f| match version {
            Version::Legacy => f,
            Version::V05 => f.trim_start_matches('-').to_string(),
        }),
        flag_if_true: get("flagIfTrue"),
        flag_if_false: get("flagIfFalse"),
        normalize_newlines: !v05 && flag("normalizeNewlines"),
        resolve_command,
        value: get("value").filter(|_| v05),
        absent_default: node
            .get("absentDefault")
            .filter(|n| v05 && !n.is_null())
            .map(Node::to_value),
        optional: v05 && flag("optional"),
        split: v05 && flag("split"),
        disambiguate_after_skipped_positionals: v05 && flag("disambiguateAfterSkippedPositionals"),
        read_path: v05 && flag("readPath"),
        write_path: v05 && flag("writePath"),
        unsafe_path: v05 && flag("unsafePath"),
        deny_pattern: get("denyPattern").filter(|_| v05),
        deny_resolve_command: deny_resolve_command.filter(|_| v05),
        deny_always_resolve: v05 && flag("denyAlwaysResolve"),
        subcommand_override: get("subcommandOverride").filter(|_| v05),
        pointer: node.pointer(),
        span: node.span,
    }))
}

fn unknown_kind(node: &Node, kind: &str, kinds: &[&str], version: Version) -> Finding {
    let f = Finding::new(
        &UNKNOWN_KIND,
        node.span,
        node.pointer(),
        format!(
            "unknown variant `{kind}`, expected {}",
            expected_list(kinds)
        ),
    );
    if let Some(k) = kinds.iter().find(|k| k.eq_ignore_ascii_case(kind)) {
        return f.with_help(format!("kinds are lowercase: write \"{k}\""));
    }
    if version == Version::Legacy && V05_KINDS.contains(&kind) {
        return f.with_help(format!(
            "`{kind}` is a chai v0.5 kind; the legacy single-file format rejects it: move to the three-file layout (tools.json array, allowlist.json, execution.json)"
        ));
    }
    match closest(kind, kinds.iter().copied()) {
        Some(s) => f.with_help(format!("did you mean \"{s}\"?")),
        None => f,
    }
}

fn param_absent(node: &Node, param: &str, tool: &ToolInfo, label: &str) -> Finding {
    let f = Finding::new(
        &PARAM_NOT_IN_PARAMETERS,
        node.span,
        node.pointer(),
        format!(
            "{label}: param {} is not a property of the parameters of tool {}",
            show(param),
            show(&tool.name)
        ),
    );
    match closest(param, tool.property_names()) {
        Some(s) => f.with_help(format!("did you mean {}?", show(s))),
        None => f.with_help(format!(
            "declare it in tools[{}].parameters.properties, or remove the mapping",
            tool.index
        )),
    }
}

/// True when a property schema's `type` is `"boolean"` (or a list containing it).
fn boolean_typed(schema: &Node) -> Result<(), String> {
    match schema.get("type") {
        None => Err("has no type".to_string()),
        Some(t) => match (t.as_str(), t.as_array()) {
            (Some("boolean"), _) => Ok(()),
            (_, Some(items)) if items.iter().any(|i| i.as_str() == Some("boolean")) => Ok(()),
            (Some(other), _) => Err(format!("has type {}", show(other))),
            _ => Err("is not typed as boolean".to_string()),
        },
    }
}

fn check_boolean(node: &Node, param: &str, schema: &Node, label: &str, findings: &mut Findings) {
    if let Err(what) = boolean_typed(schema) {
        findings.push(
            Finding::new(
                &FLAGIFBOOLEAN_NOT_BOOLEAN,
                node.span,
                node.pointer(),
                format!(
                    "{label}: flagifboolean param {} {what}, expected \"boolean\"",
                    show(param)
                ),
            )
            .with_help("declare the property with \"type\": \"boolean\" (chai treats anything but true, \"true\" and non-zero integers as false)"),
        );
    }
}

fn absent_is_false(node: &Node, param: &str, flag: &str, label: &str, version: Version) -> Finding {
    let help = match version {
        Version::Legacy => format!("add {} to `required` if that is not intended", show(param)),
        Version::V05 => format!(
            "add {} to `required`, or set `absentDefault` to choose the value used when it is omitted",
            show(param)
        ),
    };
    Finding::new(
        &FLAGIFBOOLEAN_ABSENT_IS_FALSE,
        node.span,
        node.pointer(),
        format!(
            "{label}: param {} is optional, so chai passes flagIfFalse {} whenever the model omits it",
            show(param),
            show(flag)
        ),
    )
    .with_help(help)
}

fn positional_optional(node: &Node, param: &str, label: &str, version: Version) -> Finding {
    let help = match version {
        Version::Legacy => format!(
            "add {} to `required`, or map it with kind \"flag\" (omitted when absent)",
            show(param)
        ),
        Version::V05 => format!(
            "add {} to `required`, set `optional: true` or `absentDefault`, or map it with kind \"flag\"",
            show(param)
        ),
    };
    Finding::new(
        &POSITIONAL_OPTIONAL,
        node.span,
        node.pointer(),
        format!(
            "{label}: positional param {} is optional in the schema, but chai always passes positionals: a call without it fails with \"missing parameter: {param}\"",
            show(param)
        ),
    )
    .with_help(help)
}

/// How a v0.5 mapping of an undeclared parameter still gets a value:
/// `absentDefault` (always used, the model cannot set the parameter) or
/// `optional` (always absent).
fn fixed_value(node: &Node, version: Version) -> Option<String> {
    if version != Version::V05 {
        return None;
    }
    if let Some(d) = node.get("absentDefault").filter(|n| !n.is_null()) {
        return Some(format!(
            "chai always uses its absentDefault {}",
            d.to_value()
        ));
    }
    (node.get("optional").and_then(Node::as_bool) == Some(true)).then(|| {
        "it is always absent, and `optional` skips it (a resolver runs on \"\")".to_string()
    })
}

fn param_fixed(node: &Node, param: &str, tool: &ToolInfo, label: &str, how: &str) -> Finding {
    Finding::new(
        &PARAM_FIXED_VALUE,
        node.span,
        node.pointer(),
        format!(
            "{label}: param {} is not a property of the parameters of tool {}: the model cannot set it (chai rejects undeclared arguments), so {how}",
            show(param),
            show(&tool.name)
        ),
    )
    .with_help(match closest(param, tool.property_names()) {
        Some(s) => format!("did you mean {}? If the value is meant to be fixed, this is how chai's bundled skills write it", show(s)),
        None => "a fixed value the model cannot change, as chai's bundled skills use it; declare the parameter if the model should set it".to_string(),
    })
}

/// Does a mapping emit argv tokens in `args` order (V9)?
fn emits_argv(arg: &Node) -> bool {
    let kind = arg
        .get("kind")
        .filter(|k| !k.is_null())
        .map_or(Some("positional"), Node::as_str);
    match kind {
        Some("positional" | "flag") => true,
        Some("flagifboolean") => arg.get("subcommandOverride").is_none_or(Node::is_null),
        Some("literal") => arg.get("value").is_some_and(|v| !v.is_null()),
        _ => false,
    }
}

/// The checks over a v0.5 spec's whole `args` list: a second `stdin`
/// mapping (V11) and a `tempfile` mapping followed by argv (V10).
pub fn check_order(args: &[Node], label: &str, findings: &mut Findings) {
    let kind_of = |arg: &Node| arg.get("kind").and_then(Node::as_str).map(str::to_string);
    let mut first_stdin: Option<usize> = None;
    for (j, arg) in args.iter().enumerate() {
        let kind = kind_of(arg);
        let at = arg.get("kind").unwrap_or(arg);
        let param = string(arg, "param").map_or("?", |(_, p)| p);
        match kind.as_deref() {
            Some("stdin") => match first_stdin {
                None => first_stdin = Some(j),
                Some(first) => findings.push(
                    Finding::new(
                        &SECOND_STDIN,
                        at.span,
                        at.pointer(),
                        format!(
                            "{label}.args[{j}]: second stdin mapping (param {}); chai writes only {label}.args[{first}] to stdin and ignores this one",
                            show(param)
                        ),
                    )
                    .with_help("keep one stdin mapping per spec; pass the other value as a flag, positional or tempfile"),
                ),
            },
            Some("tempfile") => {
                let later: Vec<usize> = args
                    .iter()
                    .enumerate()
                    .skip(j + 1)
                    .filter(|(_, a)| emits_argv(a))
                    .map(|(k, _)| k)
                    .collect();
                if let Some(&k) = later.first() {
                    findings.push(
                        Finding::new(
                            &TEMPFILE_ORDER,
                            at.span,
                            at.pointer(),
                            format!(
                                "{label}.args[{j}]: tempfile param {} is followed by {} mapping(s) that emit argv (first {label}.args[{k}]); chai appends the temp-file flag and path after all of them",
                                show(param),
                                later.len()
                            ),
                        )
                        .with_help("move the tempfile mapping to the end of `args` so that the file order is the argv order"),
                    );
                }
            }
            _ => {}
        }
    }
}
