//! Converting each validation keyword of an object schema into its compiled
//! form, checking its value as the draft 2020-12 meta-schema constrains it
//! (a malformed value is a [`CompileError`] at the keyword's location).
//! Keywords the draft does not define, and annotations (`title`, `format`,
//! `default`, `examples`, `content*`, …), are ignored.

use super::CompileError;
use super::compile::Compiler;
use super::node::{Bound, Keywords, MultipleOf, Pattern, Type};
use super::value::{Decimal, push_token};
use serde_json::{Map, Value};

/// The location of `keyword` in the schema at `pointer`.
fn at(pointer: &str, keyword: &str) -> String {
    let mut p = pointer.to_owned();
    push_token(&mut p, keyword);
    p
}

fn non_negative(pointer: &str, keyword: &str, value: &Value) -> Result<u64, CompileError> {
    match value {
        Value::Number(n) => n
            .as_u64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                    .map(|f| {
                        if f >= u64::MAX as f64 {
                            u64::MAX
                        } else {
                            f as u64
                        }
                    })
            })
            .ok_or(()),
        _ => Err(()),
    }
    .map_err(|()| {
        CompileError::at(
            &at(pointer, keyword),
            format!("`{keyword}` must be a non-negative integer, found {value}"),
        )
    })
}

fn number(pointer: &str, keyword: &str, value: &Value) -> Result<Bound, CompileError> {
    match value {
        Value::Number(n) => Ok(Bound { limit: n.clone() }),
        _ => Err(CompileError::at(
            &at(pointer, keyword),
            format!("`{keyword}` must be a number, found {value}"),
        )),
    }
}

/// Translates an ECMA-262 pattern into a linear-time regex.
pub(crate) fn pattern(location: &str, source: &str) -> Result<Pattern, CompileError> {
    let refuse = || {
        CompileError::at(
            location,
            format!(
                "{source:?} is not an ECMA-262 regular expression that runs in linear time (look-around and backreferences are refused)"
            ),
        )
    };
    let translated = jsonschema_regex::to_rust_regex(source).map_err(|()| refuse())?;
    let regex = regex::Regex::new(&translated).map_err(|_| refuse())?;
    Ok(Pattern {
        source: source.to_owned(),
        regex,
    })
}

fn strings(pointer: &str, keyword: &str, value: &Value) -> Result<Vec<String>, CompileError> {
    let fail = || {
        CompileError::at(
            pointer,
            format!("`{keyword}` must be an array of strings, found {value}"),
        )
    };
    value
        .as_array()
        .ok_or_else(fail)?
        .iter()
        .map(|v| v.as_str().map(str::to_owned).ok_or_else(fail))
        .collect()
}

fn object<'v>(
    pointer: &str,
    keyword: &str,
    value: &'v Value,
) -> Result<&'v Map<String, Value>, CompileError> {
    value.as_object().ok_or_else(|| {
        CompileError::at(
            &at(pointer, keyword),
            format!("`{keyword}` must be an object, found {value}"),
        )
    })
}

fn schema_array<'v>(
    pointer: &str,
    keyword: &str,
    value: &'v Value,
) -> Result<&'v [Value], CompileError> {
    match value {
        Value::Array(items) if !items.is_empty() => Ok(items),
        _ => Err(CompileError::at(
            &at(pointer, keyword),
            format!("`{keyword}` must be a non-empty array of schemas, found {value}"),
        )),
    }
}

/// Compiles the keywords of the object schema `map` at `pointer` into `k`.
pub(crate) fn compile_keywords(
    c: &mut Compiler<'_>,
    pointer: &str,
    map: &Map<String, Value>,
    k: &mut Keywords,
) -> Result<(), CompileError> {
    for (keyword, value) in map {
        let key = keyword.as_str();
        match key {
            "type" => {
                let names: Vec<&Value> = match value {
                    Value::Array(items) if !items.is_empty() => items.iter().collect(),
                    Value::String(_) => vec![value],
                    _ => vec![],
                };
                let types: Option<Vec<Type>> = names
                    .iter()
                    .map(|n| n.as_str().and_then(Type::parse))
                    .collect();
                match types {
                    Some(t) if !t.is_empty() => k.types = t,
                    _ => {
                        return Err(CompileError::at(
                            &at(pointer, key),
                            format!(
                                "`type` must be one of \"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\", \"string\", or a non-empty array of them, found {value}"
                            ),
                        ));
                    }
                }
            }
            "enum" => {
                if !value.is_array() {
                    return Err(CompileError::at(
                        &at(pointer, key),
                        format!("`enum` must be an array, found {value}"),
                    ));
                }
                k.enumeration = Some(value.clone());
            }
            "const" => k.constant = Some(value.clone()),
            "multipleOf" => {
                let divisor = value
                    .as_number()
                    .filter(|n| n.as_f64().is_some_and(|f| f > 0.0))
                    .and_then(|n| Some((Decimal::of(n)?, n.as_f64()?)))
                    .filter(|(d, _)| !d.is_zero());
                let Some((divisor, written)) = divisor else {
                    return Err(CompileError::at(
                        &at(pointer, key),
                        format!("`multipleOf` must be a number greater than 0, found {value}"),
                    ));
                };
                k.multiple_of = Some(MultipleOf { divisor, written });
            }
            "maximum" => k.maximum = Some(number(pointer, key, value)?),
            "exclusiveMaximum" => k.exclusive_maximum = Some(number(pointer, key, value)?),
            "minimum" => k.minimum = Some(number(pointer, key, value)?),
            "exclusiveMinimum" => k.exclusive_minimum = Some(number(pointer, key, value)?),
            "maxLength" => k.max_length = Some(non_negative(pointer, key, value)?),
            "minLength" => k.min_length = Some(non_negative(pointer, key, value)?),
            "pattern" => {
                let Value::String(source) = value else {
                    return Err(CompileError::at(
                        &at(pointer, key),
                        format!("`pattern` must be a string, found {value}"),
                    ));
                };
                k.pattern = Some(pattern(&at(pointer, key), source)?);
            }
            "maxItems" => k.max_items = Some(non_negative(pointer, key, value)?),
            "minItems" => k.min_items = Some(non_negative(pointer, key, value)?),
            "maxContains" => k.max_contains = Some(non_negative(pointer, key, value)?),
            "minContains" => k.min_contains = Some(non_negative(pointer, key, value)?),
            "maxProperties" => k.max_properties = Some(non_negative(pointer, key, value)?),
            "minProperties" => k.min_properties = Some(non_negative(pointer, key, value)?),
            "uniqueItems" => {
                k.unique_items = value.as_bool().ok_or_else(|| {
                    CompileError::at(
                        &at(pointer, key),
                        format!("`uniqueItems` must be a boolean, found {value}"),
                    )
                })?;
            }
            "required" => k.required = strings(&at(pointer, key), key, value)?,
            "dependentRequired" => {
                for (name, names) in object(pointer, key, value)? {
                    let mut place = at(pointer, key);
                    push_token(&mut place, name);
                    let names = strings(&place, key, names)?;
                    k.dependent_required.push((name.clone(), names));
                }
            }
            "dependentSchemas" => {
                for (name, schema) in object(pointer, key, value)? {
                    let id = c.subschema(pointer, &[key, name], schema)?;
                    k.dependent_schemas.push((name.clone(), id));
                }
            }
            // Legacy: the 2020-12 meta-schema still defines `dependencies`
            // as either form.
            "dependencies" => {
                for (name, entry) in object(pointer, key, value)? {
                    if entry.is_array() {
                        let mut place = at(pointer, key);
                        push_token(&mut place, name);
                        let names = strings(&place, key, entry)?;
                        k.dependent_required.push((name.clone(), names));
                    } else {
                        let id = c.subschema(pointer, &[key, name], entry)?;
                        k.dependent_schemas.push((name.clone(), id));
                    }
                }
            }
            "properties" => {
                for (name, schema) in object(pointer, key, value)? {
                    let id = c.subschema(pointer, &[key, name], schema)?;
                    k.properties.insert(name.clone(), id);
                }
            }
            "patternProperties" => {
                for (source, schema) in object(pointer, key, value)? {
                    let mut place = at(pointer, key);
                    push_token(&mut place, source);
                    let p = pattern(&place, source)?;
                    let id = c.subschema(pointer, &[key, source], schema)?;
                    k.pattern_properties.push((p, id));
                }
            }
            "additionalProperties" => {
                k.additional_properties_false = *value == Value::Bool(false);
                k.additional_properties = Some(c.subschema(pointer, &[key], value)?);
            }
            "propertyNames" => k.property_names = Some(c.subschema(pointer, &[key], value)?),
            "unevaluatedProperties" => {
                k.unevaluated_properties = Some(c.subschema(pointer, &[key], value)?);
            }
            "prefixItems" => {
                for (i, schema) in schema_array(pointer, key, value)?.iter().enumerate() {
                    let id = c.subschema(pointer, &[key, &i.to_string()], schema)?;
                    k.prefix_items.push(id);
                }
            }
            "items" => {
                if value.is_array() {
                    return Err(CompileError::at(
                        &at(pointer, key),
                        "`items` must be a schema in draft 2020-12 (tuple validation is spelled `prefixItems`)",
                    ));
                }
                k.items = Some(c.subschema(pointer, &[key], value)?);
            }
            "contains" => k.contains = Some(c.subschema(pointer, &[key], value)?),
            "unevaluatedItems" => {
                k.unevaluated_items = Some(c.subschema(pointer, &[key], value)?);
            }
            "allOf" | "anyOf" | "oneOf" => {
                let mut ids = Vec::new();
                for (i, schema) in schema_array(pointer, key, value)?.iter().enumerate() {
                    ids.push(c.subschema(pointer, &[key, &i.to_string()], schema)?);
                }
                match key {
                    "allOf" => k.all_of = ids,
                    "anyOf" => k.any_of = ids,
                    _ => k.one_of = ids,
                }
            }
            "not" => k.not = Some((c.subschema(pointer, &[key], value)?, value.clone())),
            "if" => k.if_ = Some(c.subschema(pointer, &[key], value)?),
            "then" => k.then_ = Some(c.subschema(pointer, &[key], value)?),
            "else" => k.else_ = Some(c.subschema(pointer, &[key], value)?),
            "$defs" | "definitions" => {
                // Compiled when referenced; checked for shape here.
                for (name, schema) in object(pointer, key, value)? {
                    let mut place = at(pointer, key);
                    push_token(&mut place, name);
                    if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
                        return Err(CompileError::at(
                            &place,
                            format!("a schema must be an object or a boolean, found {schema}"),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}
