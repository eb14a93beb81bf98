//! `resolveCommand` and its v0.5 relatives (`denyResolveCommand`,
//! `postProcess`): exactly one of `script` / `binary`+`subcommand`, a safe
//! script name, an allowlisted command.

use super::Version;
use super::allowlist::Allowlist;
use super::fields::{first_char, show};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::model::ResolveCommand;
use crate::rules::Rule;
use crate::tree::Node;

pub static RESOLVER_MODE: Rule = Rule::error(
    "chai/resolver-mode",
    "chai",
    "a resolver sets both `script` and `binary`/`subcommand`, or neither (it must use exactly one)",
);
pub static SCRIPT_NAME: Rule = Rule::error(
    "chai/script-name",
    "chai",
    "a resolver's `script` contains `..`, `/` or `\\` (chai refuses to run it)",
);
pub static PARAM_SUBSTITUTION: Rule = Rule::warning(
    "chai/param-substitution",
    "chai",
    "a v0.5 resolver argument contains `$param` inside a larger token; chai v0.5 replaces only an argument equal to `$param`",
);
pub static SCRIPT_EXTENSION: Rule = Rule::warning(
    "chai/script-extension",
    "chai",
    "a resolver's `script` contains a `.`; chai replaces an extension by `.sh` when the file is not found",
);

fn string<'a>(node: &'a Node, key: &str) -> Option<(&'a Node, &'a str)> {
    let value = node.get(key)?;
    Some((value, value.as_str()?))
}

/// Checks one resolver object (`label` is its chai-style path) and returns it
/// for the model. Keys and types are checked by `fields`.
pub fn check(
    node: &Node,
    label: &str,
    version: Version,
    allowlist: Option<&Allowlist>,
    findings: &mut Findings,
) -> Option<ResolveCommand> {
    node.as_object()?;
    let script = string(node, "script");
    let binary = string(node, "binary");
    let subcommand = string(node, "subcommand");
    let arg_nodes = node
        .get("args")
        .and_then(Node::as_array)
        .unwrap_or_default();
    let args: Vec<String> = arg_nodes
        .iter()
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect();
    if version == Version::V05 {
        for arg in arg_nodes {
            if let Some(text) = arg
                .as_str()
                .filter(|t| *t != "$param" && t.contains("$param"))
            {
                findings.push(
                    Finding::new(
                        &PARAM_SUBSTITUTION,
                        arg.span,
                        arg.pointer(),
                        format!(
                            "{label}: argument {} contains $param inside a larger token; chai v0.5 passes it unchanged",
                            show(text)
                        ),
                    )
                    .with_help("pass \"$param\" as an argument of its own (v0.5 replaces only a whole `$param` argument)"),
                );
            }
        }
    }
    if let Some((node, name)) = script {
        check_script_name(node, name, label, findings);
    }
    match (script, binary, subcommand) {
        (Some((_, s)), Some(_), _) | (Some((_, s)), _, Some(_)) => {
            findings.push(
                Finding::new(
                    &RESOLVER_MODE,
                    first_char(node),
                    node.pointer(),
                    format!(
                        "{label}: sets both script {} and binary/subcommand; set exactly one",
                        show(s)
                    ),
                )
                .with_help(
                    "chai runs only the script (when scripts are allowed) and never falls back to the command",
                ),
            );
        }
        (None, Some((b, name)), None) => findings.push(Finding::new(
            &RESOLVER_MODE,
            b.span,
            b.pointer(),
            format!(
                "{label}: binary {} without subcommand; the resolver does nothing",
                show(name)
            ),
        )),
        (None, None, Some((s, name))) => findings.push(Finding::new(
            &RESOLVER_MODE,
            s.span,
            s.pointer(),
            format!(
                "{label}: subcommand {} without binary; the resolver does nothing",
                show(name)
            ),
        )),
        (None, None, None) => findings.push(
            Finding::new(
                &RESOLVER_MODE,
                first_char(node),
                node.pointer(),
                format!("{label}: neither script nor binary+subcommand is set; the resolver does nothing"),
            )
            .with_help("set `script` (a file in the skill's scripts/ directory) or `binary` and `subcommand` (allowlisted)"),
        ),
        _ => {}
    }
    if let (Some((b, _)), Some((s, _)), Some(allowlist)) = (binary, subcommand, allowlist) {
        allowlist.check_pair(b, Some(s), label, findings);
    }
    match (script, binary, subcommand) {
        (Some((_, s)), _, _) => Some(ResolveCommand::Script {
            script: s.to_string(),
            args,
        }),
        (None, Some((_, b)), Some((_, s))) => Some(ResolveCommand::Command {
            binary: b.to_string(),
            subcommand: s.to_string(),
            args,
        }),
        _ => None,
    }
}

fn check_script_name(node: &Node, name: &str, label: &str, findings: &mut Findings) {
    let bad = ["..", "/", "\\"].into_iter().find(|p| name.contains(p));
    if let Some(part) = bad {
        findings.push(
            Finding::new(
                &SCRIPT_NAME,
                node.span,
                node.pointer(),
                format!(
                    "{label}: script name {} contains {}",
                    show(name),
                    show(part)
                ),
            )
            .with_help(
                "name a file directly inside the skill's scripts/ directory, e.g. \"resolve-path\"",
            ),
        );
    } else if name.contains('.') {
        findings.push(
            Finding::new(
                &SCRIPT_EXTENSION,
                node.span,
                node.pointer(),
                format!(
                    "{label}: script {} contains a \".\"; when scripts/{name} is not a file, chai replaces its extension and runs the .sh file instead",
                    show(name)
                ),
            )
            .with_help("name the script without a dot; chai looks up scripts/<name>, then scripts/<name>.sh"),
        );
    }
}
