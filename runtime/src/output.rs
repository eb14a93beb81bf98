//! chai v0.5's output pipeline (fb29f89, `crates/lib/src/tools/generic/mod.rs`:
//! exit status, `postProcess`, `hintConditions`, truncation, `sideRead`, in
//! that order), as pure functions on text: merging stdout and stderr,
//! `hintConditions`, truncation with its notice, the `sideRead` block and the
//! argument substitution of `postProcess`. Running the post-processor and reading
//! the side file happen in the runtime; this module never does I/O.
//!
//! Safer than chai: a `truncationHint` with no line kept does not panic.

use serde_json::{Map, Value};
use toolsmith_model::model::{HintCondition, HintExitCode};

/// O1: stdout, then stderr after a `\n` when both are non-empty.
///
/// ```
/// assert_eq!(toolsmith::output::merge("out\n", "err\n"), "out\n\nerr\n");
/// assert_eq!(toolsmith::output::merge("", "err"), "err");
/// ```
pub fn merge(stdout: &str, stderr: &str) -> String {
    match (stdout.is_empty(), stderr.is_empty()) {
        (_, true) => stdout.to_owned(),
        (true, false) => stderr.to_owned(),
        (false, false) => format!("{stdout}\n{stderr}"),
    }
}

/// A value as chai's templates show it: a string verbatim, absent or null as
/// `""`, anything else as JSON text.
fn show(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// O2: each post-processor argument starting with `$` becomes the call
/// parameter named by the rest.
pub fn post_process_args(args: &[String], call: &Map<String, Value>) -> Vec<String> {
    args.iter()
        .map(|a| match a.strip_prefix('$') {
            Some(name) => show(call.get(name)),
            None => a.clone(),
        })
        .collect()
}

/// chai's loose equality of a `whenArg` value and a call value.
fn loosely_equal(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (a.as_f64(), b.as_f64()) {
                (Some(x), Some(y)) => (x - y).abs() < f64::EPSILON,
                _ => false,
            },
        },
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::String(a), Value::Number(_) | Value::Bool(_)) => {
            a.as_str() == actual.to_string().as_str()
        }
        (Value::Number(n), Value::String(s)) => s
            .trim()
            .parse::<f64>()
            .ok()
            .zip(n.as_f64())
            .is_some_and(|(x, y)| (x - y).abs() < f64::EPSILON),
        (Value::Bool(b), Value::String(s)) => s.eq_ignore_ascii_case(&b.to_string()),
        _ => false,
    }
}

/// Whether one hint condition fires.
fn fires(c: &HintCondition, result: &str, exit_code: i32, call: &Map<String, Value>) -> bool {
    let mut any = false;
    if let Some(m) = &c.matches {
        any = true;
        if !result.contains(m.as_str()) {
            return false;
        }
    }
    if let Some(code) = &c.exit_code {
        any = true;
        let holds = match code {
            HintExitCode::Code(n) => exit_code == *n,
            HintExitCode::Text(t) => t == "nonzero" && exit_code != 0,
        };
        if !holds {
            return false;
        }
    }
    if let Some(not_empty) = c.not_empty {
        any = true;
        if not_empty && result.is_empty() {
            return false;
        }
    }
    if let Some(when) = &c.when_arg {
        any = true;
        let holds = when.iter().all(|(k, expected)| {
            call.get(k)
                .is_some_and(|v| !v.is_null() && loosely_equal(expected, v))
        });
        if !holds {
            return false;
        }
    }
    any
}

/// The `{name}` template of a hint: `{{` and `}}` escape braces, `{}` and an
/// unclosed `{` stay literal.
pub fn fill_template(template: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push('{');
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push('}');
            rest = after;
        } else if let Some(stripped) = tail.strip_prefix('{')
            && let Some(end) = stripped.find('}')
            && end > 0
            && let Some(value) = lookup(&stripped[..end])
        {
            out.push_str(&value);
            rest = &stripped[end + 1..];
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// O3: appends `hint: …` lines for the conditions that fire.
///
/// ```
/// use toolsmith::manifest::model::{HintCondition, HintExitCode};
/// let c = HintCondition { exit_code: Some(HintExitCode::Text("nonzero".into())), hint: "no match for {q}".into(), ..Default::default() };
/// let call = serde_json::json!({"q": "x"});
/// let out = toolsmith::output::apply_hints("", 1, &[c], call.as_object().unwrap());
/// assert_eq!(out, "\nhint: no match for x\n");
/// ```
pub fn apply_hints(
    result: &str,
    exit_code: i32,
    conditions: &[HintCondition],
    call: &Map<String, Value>,
) -> String {
    let fired: Vec<&HintCondition> = conditions
        .iter()
        .filter(|c| fires(c, result, exit_code, call))
        .collect();
    if fired.is_empty() {
        return result.to_owned();
    }
    let mut out = result.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    for c in fired {
        let text = fill_template(&c.hint, &|name| Some(show(call.get(name))));
        out.push_str("\nhint: ");
        out.push_str(&text);
        out.push('\n');
    }
    out
}

/// O4: keeps `max_lines` lines that are not `hint:` lines, then the notice,
/// then the hint lines. Returns the text unchanged when it is short enough.
///
/// ```
/// let out = toolsmith::output::truncate("a\nb\nc\n", 2, None);
/// assert_eq!(out, "a\nb\n\n[output truncated: 2 of 3 lines shown; 1 lines omitted. Narrow your query path, pattern, or range to reduce results.]");
/// ```
pub fn truncate(result: &str, max_lines: usize, hint: Option<&str>) -> String {
    let lines: Vec<&str> = result.lines().collect();
    let total = lines.len();
    if total <= max_lines {
        return result.to_owned();
    }
    let (hints, others): (Vec<&str>, Vec<&str>) =
        lines.iter().partition(|l| l.starts_with("hint:"));
    let kept = max_lines.min(others.len());
    let omitted = others.len() - kept;
    let next_start = others[..kept]
        .last()
        .and_then(|l| l.split('\t').next())
        .and_then(|n| n.trim().parse::<u64>().ok())
        .map_or(kept as u64 + 1, |n| n + 1);
    let notice = match hint {
        Some(template) => fill_template(template, &|name| match name {
            "kept" => Some(kept.to_string()),
            "total" => Some(total.to_string()),
            "omitted" => Some(omitted.to_string()),
            "next_start" => Some(next_start.to_string()),
            _ => None,
        }),
        None => format!(
            "output truncated: {kept} of {total} lines shown; {omitted} lines omitted. Narrow your query path, pattern, or range to reduce results."
        ),
    };
    let mut out = others[..kept].join("\n");
    out.push_str("\n\n[");
    out.push_str(&notice);
    out.push(']');
    for h in hints {
        out.push_str("\n\n");
        out.push_str(h);
    }
    out
}

/// O5: the side file appended to the result.
pub fn append_side_read(result: &str, label: &str, content: &str) -> String {
    format!(
        "{}\n\n--- {label} (BOF) ---\n\n{}\n\n--- {label} (EOF) ---",
        result.trim_end(),
        content.trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn hints_follow_chais_rules() {
        let c = |v: Value| -> HintCondition { serde_json::from_value(v).unwrap() };
        let args = call(json!({"n": 5, "s": "TRUE"}));
        // No condition field: never fires.
        assert_eq!(apply_hints("x", 0, &[c(json!({"hint": "h"}))], &args), "x");
        // Only notEmpty false: always fires.
        assert_eq!(
            apply_hints("x", 0, &[c(json!({"notEmpty": false, "hint": "h"}))], &args),
            "x\n\nhint: h\n"
        );
        let when = c(json!({"whenArg": {"n": "5", "s": true}, "hint": "n={n} {{ok}} {}"}));
        assert_eq!(apply_hints("", 0, &[when], &args), "\nhint: n=5 {ok} {}\n");
        let other_text = c(json!({"exitCode": "zero", "hint": "h"}));
        assert_eq!(apply_hints("", 3, &[other_text], &args), "");
    }

    #[test]
    fn truncation_keeps_hints_and_never_panics() {
        let text = "1\ta\n2\tb\n3\tc\nhint: x\n";
        assert_eq!(
            truncate(text, 2, Some("{kept}/{total}, next {next_start}")),
            "1\ta\n2\tb\n\n[2/4, next 3]\n\nhint: x"
        );
        // chai panics here (no line kept with a truncationHint).
        assert_eq!(
            truncate("hint: a\nhint: b\n", 0, Some("{kept}")),
            "\n\n[0]\n\nhint: a\n\nhint: b"
        );
    }

    #[test]
    fn post_process_arguments() {
        let args = call(json!({"q": "x", "n": 5}));
        let given = ["$q", "$n", "$missing", "x$q"].map(String::from);
        assert_eq!(post_process_args(&given, &args), ["x", "5", "", "x$q"]);
    }
}
