//! argv construction for chai tools dispatched at run time (dialects.md §1.4,
//! U1–U8), and the argv checks every call passes before spawning.

use crate::policy::LeadingDash;
use crate::tool::{ArgvError, MAX_ARG_BYTES};
use serde_json::{Map, Value};
use toolsmith_manifest::model::{ArgKind, ChaiExecution, ResolveCommand};

/// Who wrote a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The manifest (subcommand, flag names, `flagIfTrue`/`flagIfFalse`).
    Manifest,
    /// A positional value from the model.
    Positional(String),
    /// A `--flag value` value from the model (`numeric`: a JSON number).
    FlagValue { param: String, numeric: bool },
}

/// One argv token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub text: String,
    pub origin: Origin,
}

/// A `resolveCommand` step bound to a token.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub index: usize,
    pub param: String,
    pub resolver: ResolveCommand,
}

/// Builds the tokens after the subcommand, in `args` order, and the resolve steps.
pub(crate) fn chai(
    exec: &ChaiExecution,
    args: &Map<String, Value>,
) -> Result<(Vec<Token>, Vec<Step>), ArgvError> {
    let mut tokens = vec![Token {
        text: exec.subcommand.clone(),
        origin: Origin::Manifest,
    }];
    let mut steps = Vec::new();
    for m in &exec.args {
        let value = args.get(&m.param);
        match m.kind {
            ArgKind::Positional => {
                let v = value.ok_or_else(|| ArgvError::Missing {
                    param: m.param.clone(),
                })?;
                let text = render(&m.param, v, m.normalize_newlines)?;
                push_value(
                    &mut tokens,
                    &mut steps,
                    m,
                    text,
                    Origin::Positional(m.param.clone()),
                );
            }
            ArgKind::Flag => {
                let Some(v) = value.filter(|v| !v.is_null()) else {
                    continue;
                };
                let text = render(&m.param, v, m.normalize_newlines)?;
                let name = m.flag.as_deref().unwrap_or(&m.param);
                tokens.push(Token {
                    text: format!("--{name}"),
                    origin: Origin::Manifest,
                });
                let origin = Origin::FlagValue {
                    param: m.param.clone(),
                    numeric: v.is_number(),
                };
                push_value(&mut tokens, &mut steps, m, text, origin);
            }
            ArgKind::FlagIfBoolean => {
                let flag = if value.is_some_and(truthy) {
                    &m.flag_if_true
                } else {
                    &m.flag_if_false
                };
                if let Some(flag) = flag {
                    tokens.push(Token {
                        text: flag.clone(),
                        origin: Origin::Manifest,
                    });
                }
            }
        }
    }
    Ok((tokens, steps))
}

fn push_value(
    tokens: &mut Vec<Token>,
    steps: &mut Vec<Step>,
    m: &toolsmith_manifest::model::ArgMapping,
    text: String,
    origin: Origin,
) {
    if let Some(resolver) = &m.resolve_command {
        steps.push(Step {
            index: tokens.len(),
            param: m.param.clone(),
            resolver: resolver.clone(),
        });
    }
    tokens.push(Token { text, origin });
}

/// chai's value rendering (U6) with `normalizeNewlines` (U7).
fn render(param: &str, v: &Value, normalize: bool) -> Result<String, ArgvError> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => {
            return Err(ArgvError::NotScalar {
                param: param.to_string(),
            });
        }
    };
    Ok(if normalize {
        text.replace("\\n", "\n").replace("\\t", "\t")
    } else {
        text
    })
}

/// chai's truthiness for `flagifboolean` (U2).
fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::String(s) => s.eq_ignore_ascii_case("true"),
        Value::Number(n) => n.as_i64().is_some_and(|i| i != 0),
        _ => false,
    }
}

/// Checks the model-written tokens (NUL, size, leading dash) and returns the
/// final argv, with the end-of-options marker inserted when the policy asks for it.
pub(crate) fn finish(
    tokens: Vec<Token>,
    leading_dash: &LeadingDash,
) -> Result<Vec<String>, ArgvError> {
    let mut first_dash: Option<(usize, String)> = None;
    for (i, t) in tokens.iter().enumerate() {
        let param = match &t.origin {
            Origin::Manifest => continue,
            Origin::Positional(p) | Origin::FlagValue { param: p, .. } => p,
        };
        check_value(param, &t.text)?;
        if !t.text.starts_with('-') {
            continue;
        }
        match &t.origin {
            Origin::FlagValue { numeric: true, .. } => {}
            Origin::FlagValue { .. } => return Err(dash(param, &t.text)),
            _ => {
                if first_dash.is_none() {
                    first_dash = Some((i, param.clone()));
                }
            }
        }
    }
    let Some((i, param)) = first_dash else {
        return Ok(tokens.into_iter().map(|t| t.text).collect());
    };
    let value = tokens.get(i).map(|t| t.text.clone()).unwrap_or_default();
    let LeadingDash::Marker(marker) = leading_dash else {
        return Err(dash(&param, &value));
    };
    let first_positional = tokens
        .iter()
        .position(|t| matches!(t.origin, Origin::Positional(_)))
        .unwrap_or(i);
    let options_after = tokens[first_positional..]
        .iter()
        .any(|t| !matches!(t.origin, Origin::Positional(_)));
    if options_after {
        return Err(dash(&param, &value));
    }
    let mut argv: Vec<String> = tokens.into_iter().map(|t| t.text).collect();
    argv.insert(first_positional, marker.clone());
    Ok(argv)
}

/// NUL bytes and the per-argument size limit.
pub(crate) fn check_value(param: &str, value: &str) -> Result<(), ArgvError> {
    if value.contains('\0') {
        return Err(ArgvError::NulByte {
            param: param.to_string(),
        });
    }
    if value.len() > MAX_ARG_BYTES - 1 {
        return Err(ArgvError::TooLong {
            param: param.to_string(),
            len: value.len(),
            limit: MAX_ARG_BYTES - 1,
        });
    }
    Ok(())
}

fn dash(param: &str, value: &str) -> ArgvError {
    ArgvError::LeadingDash {
        param: param.to_string(),
        value: value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use toolsmith_manifest::model::ArgMapping;

    fn mapping(param: &str, kind: ArgKind) -> ArgMapping {
        ArgMapping {
            param: param.into(),
            kind,
            flag: None,
            flag_if_true: None,
            flag_if_false: None,
            normalize_newlines: false,
            resolve_command: None,
        }
    }

    fn exec(args: Vec<ArgMapping>) -> ChaiExecution {
        ChaiExecution {
            binary: "ls".into(),
            subcommand: "sub".into(),
            args,
            skill_dir: Default::default(),
        }
    }

    fn build(e: &ChaiExecution, v: Value, ld: &LeadingDash) -> Result<Vec<String>, ArgvError> {
        let (tokens, _) = chai(e, v.as_object().unwrap())?;
        finish(tokens, ld)
    }

    #[test]
    fn chai_kinds() {
        let mut b = mapping("all", ArgKind::FlagIfBoolean);
        b.flag_if_true = Some("-a".into());
        b.flag_if_false = Some("--no-all".into());
        let mut f = mapping("limit", ArgKind::Flag);
        f.flag = Some("max".into());
        let e = exec(vec![b, f, mapping("path", ArgKind::Positional)]);
        let r = build(
            &e,
            json!({"all": "TRUE", "limit": 3, "path": "x"}),
            &LeadingDash::Refuse,
        )
        .unwrap();
        assert_eq!(r, ["sub", "-a", "--max", "3", "x"]);
        let r = build(&e, json!({"path": "x"}), &LeadingDash::Refuse).unwrap();
        assert_eq!(r, ["sub", "--no-all", "x"]);
        assert_eq!(
            build(&e, json!({}), &LeadingDash::Refuse),
            Err(ArgvError::Missing {
                param: "path".into()
            })
        );
        assert_eq!(
            build(&e, json!({"path": null}), &LeadingDash::Refuse),
            Err(ArgvError::NotScalar {
                param: "path".into()
            })
        );
    }

    #[test]
    fn leading_dash_refused_or_marked() {
        let e = exec(vec![mapping("path", ArgKind::Positional)]);
        assert!(matches!(
            build(&e, json!({"path": "--version"}), &LeadingDash::Refuse),
            Err(ArgvError::LeadingDash { .. })
        ));
        let r = build(
            &e,
            json!({"path": "--version"}),
            &LeadingDash::Marker("--".into()),
        )
        .unwrap();
        assert_eq!(r, ["sub", "--", "--version"]);
        let e = exec(vec![
            mapping("path", ArgKind::Positional),
            mapping("n", ArgKind::Flag),
        ]);
        assert!(
            build(
                &e,
                json!({"path": "-x", "n": 1}),
                &LeadingDash::Marker("--".into())
            )
            .is_err()
        );
        let e = exec(vec![mapping("n", ArgKind::Flag)]);
        assert!(build(&e, json!({"n": -1}), &LeadingDash::Refuse).is_ok());
        assert!(build(&e, json!({"n": "-x"}), &LeadingDash::Refuse).is_err());
    }

    #[test]
    fn nul_and_size() {
        let e = exec(vec![mapping("p", ArgKind::Positional)]);
        assert_eq!(
            build(&e, json!({"p": "a\u{0}b"}), &LeadingDash::Refuse),
            Err(ArgvError::NulByte { param: "p".into() })
        );
        assert!(matches!(
            build(&e, json!({"p": "a".repeat(131_072)}), &LeadingDash::Refuse),
            Err(ArgvError::TooLong { .. })
        ));
        assert!(build(&e, json!({"p": "a".repeat(131_071)}), &LeadingDash::Refuse).is_ok());
    }
}
