//! The v0.5 output pipeline of an execution spec: exit codes,
//! `truncationHint` and `hintConditions`, for what chai accepts but
//! mishandles at call time (chai fb29f89): hints that never or always fire,
//! and a truncation hint that panics when no line is kept.

use super::fields::{show, span_in_string};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::tree::{Kind, Node};

pub static EXIT_CODE_RANGE: Rule = Rule::error(
    "chai/exit-code-range",
    "chai",
    "an exit code in `successExitCodes` or `hintConditions[].exitCode` is outside 0–255: no process exits with it",
);
pub static TRUNCATION_HINT_VARIABLE: Rule = Rule::warning(
    "chai/truncation-hint-variable",
    "chai",
    "`truncationHint` uses a `{variable}` chai does not substitute (only `{kept}`, `{total}`, `{omitted}`, `{next_start}`); it stays literal",
);
pub static TRUNCATION_HINT_PANIC: Rule = Rule::error(
    "chai/truncation-hint-panic",
    "chai",
    "`truncationHint` with `maxOutputLines: 0`: chai panics on any non-empty output",
);
pub static HINT_NEVER_FIRES: Rule = Rule::warning(
    "chai/hint-never-fires",
    "chai",
    "a `hintConditions` entry can never fire (no condition, an `exitCode` that is never reached or not `\"nonzero\"`)",
);
pub static HINT_ALWAYS_FIRES: Rule = Rule::warning(
    "chai/hint-always-fires",
    "chai",
    "a `hintConditions` entry fires on every successful call (only `notEmpty: false`, `whenArg: {}` or `match: \"\"`)",
);

const VARIABLES: &[&str] = &["kept", "total", "omitted", "next_start"];

/// The integer value of a node, when it is one.
fn int(node: &Node) -> Option<i128> {
    match &node.kind {
        Kind::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        _ => None,
    }
}

fn out_of_range(node: &Node, code: i128, label: &str) -> Finding {
    Finding::new(
        &EXIT_CODE_RANGE,
        node.span,
        node.pointer(),
        format!("{label}: exit code {code} is outside 0–255; no process exits with it"),
    )
    .with_help("exit statuses are 0–255 (a signal gives no exit code at all); use the code the program really returns")
}

/// Checks the output keys of one v0.5 execution spec (`label` is `execution[i]`).
pub fn check(spec: &Node, label: &str, text: &str, findings: &mut Findings) {
    let success: Vec<i128> = spec
        .get("successExitCodes")
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| {
            let code = int(n)?;
            if !(0..=255).contains(&code) {
                findings.push(out_of_range(n, code, &format!("{label}.successExitCodes")));
            }
            Some(code)
        })
        .collect();
    check_truncation(spec, label, text, findings);
    let hints = spec
        .get("hintConditions")
        .and_then(Node::as_array)
        .unwrap_or_default();
    for (k, hint) in hints.iter().enumerate() {
        check_hint(
            hint,
            &format!("{label}.hintConditions[{k}]"),
            &success,
            findings,
        );
    }
}

fn check_truncation(spec: &Node, label: &str, text: &str, findings: &mut Findings) {
    let Some(hint_node) = spec.get("truncationHint") else {
        return;
    };
    let Some(hint) = hint_node.as_str() else {
        return;
    };
    if let Some(max) = spec.get("maxOutputLines").filter(|m| int(m) == Some(0)) {
        findings.push(
            Finding::new(
                &TRUNCATION_HINT_PANIC,
                max.span,
                max.pointer(),
                format!("{label}: maxOutputLines is 0 with a truncationHint; chai panics (subtract with overflow) on any non-empty output"),
            )
            .with_help("set maxOutputLines to at least 1, or remove truncationHint"),
        );
    }
    let mut at = 0;
    while let Some(open) = hint.get(at..).and_then(|t| t.find('{')) {
        let start = at + open;
        let Some(close) = hint.get(start + 1..).and_then(|t| t.find('}')) else {
            break;
        };
        let name = &hint[start + 1..start + 1 + close];
        at = start + 1;
        let looks_like_variable = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !looks_like_variable || VARIABLES.contains(&name) {
            continue;
        }
        let mut f = Finding::new(
            &TRUNCATION_HINT_VARIABLE,
            span_in_string(text, hint_node, start, name.len() + 2),
            hint_node.pointer(),
            format!(
                "{label}: truncationHint variable {{{name}}} is not substituted by chai (only {{kept}}, {{total}}, {{omitted}}, {{next_start}}); it appears literally"
            ),
        );
        f = match crate::suggest::closest(name, VARIABLES.iter().copied()) {
            Some(s) => f.with_help(format!("did you mean {{{s}}}?")),
            None => f.with_help(
                "use {kept}, {total}, {omitted} or {next_start}, or write the text without braces",
            ),
        };
        findings.push(f);
    }
}

/// What one condition field of a hint says.
#[derive(PartialEq)]
enum Holds {
    Never(String),
    Always,
    Sometimes,
}

fn exit_code(node: &Node, label: &str, success: &[i128], findings: &mut Findings) -> Holds {
    if let Some(s) = node.as_str() {
        if s != "nonzero" {
            return Holds::Never(format!(
                "exitCode {} is neither \"nonzero\" nor an integer (chai logs it and never fires)",
                show(s)
            ));
        }
        return if success.iter().any(|c| *c != 0) {
            Holds::Sometimes
        } else {
            Holds::Never("exitCode \"nonzero\" is never reached: hints run only after success, and successExitCodes lists no non-zero code".to_string())
        };
    }
    let Some(code) = int(node) else {
        return Holds::Sometimes;
    };
    if !(0..=255).contains(&code) {
        findings.push(out_of_range(node, code, &format!("{label}.exitCode")));
        return Holds::Sometimes;
    }
    // `exitCode: 0` without other success codes holds on every call that
    // reaches the hints, but chai's bundled skills use it on purpose ("after
    // success"), so it is not reported.
    match code {
        0 => Holds::Sometimes,
        c if success.contains(&c) => Holds::Sometimes,
        c => Holds::Never(format!(
            "exitCode {c} is never reached: hints run only after success, and {c} is not in successExitCodes"
        )),
    }
}

fn check_hint(hint: &Node, label: &str, success: &[i128], findings: &mut Findings) {
    if hint.as_object().is_none() {
        return;
    }
    let given = |k: &str| hint.member(k).filter(|m| !m.value.is_null());
    let mut verdicts: Vec<Holds> = Vec::new();
    if let Some(m) = given("match") {
        verdicts.push(match m.value.as_str() {
            Some("") => Holds::Always,
            _ => Holds::Sometimes,
        });
    }
    if let Some(m) = given("exitCode") {
        verdicts.push(exit_code(&m.value, label, success, findings));
    }
    if let Some(m) = given("notEmpty") {
        verdicts.push(match m.value.as_bool() {
            Some(false) => Holds::Always,
            _ => Holds::Sometimes,
        });
    }
    if let Some(m) = given("whenArg") {
        verdicts.push(match m.value.as_object() {
            Some([]) => Holds::Always,
            _ => Holds::Sometimes,
        });
    }
    let at = hint.member("hint").map_or(hint.span, |m| m.key_span);
    if verdicts.is_empty() {
        findings.push(
            Finding::new(
                &HINT_NEVER_FIRES,
                at,
                hint.pointer(),
                format!("{label}: hint condition has no condition field (match, exitCode, notEmpty, whenArg); chai never fires it"),
            )
            .with_help("add the condition that should trigger the hint, e.g. \"notEmpty\": true or \"match\": \"…\""),
        );
        return;
    }
    if let Some(Holds::Never(why)) = verdicts.iter().find(|v| matches!(v, Holds::Never(_))) {
        findings.push(
            Finding::new(
                &HINT_NEVER_FIRES,
                at,
                hint.pointer(),
                format!("{label}: {why}"),
            )
            .with_help(
                "use \"nonzero\" or an exit code listed in successExitCodes, or remove the hint",
            ),
        );
        return;
    }
    if verdicts.iter().all(|v| *v == Holds::Always) {
        findings.push(
            Finding::new(
                &HINT_ALWAYS_FIRES,
                at,
                hint.pointer(),
                format!("{label}: every condition of this hint always holds; chai appends it to every successful result"),
            )
            .with_help("add a real condition (`notEmpty: true`, `match`, `whenArg` with values), or put the text in the tool description"),
        );
    }
}
