//! Round-trip checks shared by the generated-code tests: for each tool of a
//! generated module, instances synthesized from its schema go through
//! `ToolCall::parse` and back to JSON unchanged (modulo omitted `null`s and
//! filled-in defaults), and instances the schema rejects are refused.

use serde_json::{Map, Value, json};

/// A value of `schema`'s type, or `None` when there is no obvious one.
fn sample(schema: &Value, full: bool, depth: usize) -> Option<Value> {
    if depth > 6 {
        return None;
    }
    if let Some(v) = schema.get("const") {
        return Some(v.clone());
    }
    if let Some(v) = schema.get("enum").and_then(Value::as_array) {
        return v.iter().find(|v| !v.is_null()).cloned();
    }
    if let Some(v) = schema.get("default") {
        return Some(v.clone());
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null")?,
        _ if schema.get("properties").is_some() => "object",
        _ => return Some(json!("any")),
    };
    Some(match ty {
        "string" => json!("sample"),
        "integer" => json!(
            schema
                .get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(1)
                .max(1)
        ),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "array" => match schema.get("items") {
            Some(items) if items.is_object() => json!([sample(items, full, depth + 1)?]),
            _ => json!([]),
        },
        "object" => object(schema, full, depth + 1)?,
        _ => return None,
    })
}

fn object(schema: &Value, full: bool, depth: usize) -> Option<Value> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            if full || required.contains(&name.as_str()) {
                out.insert(name.clone(), sample(prop, full, depth)?);
            }
        }
    }
    Some(Value::Object(out))
}

/// Removes `null` members and compares numbers by value.
fn normalize(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), normalize(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        Value::Number(n) => json!(n.as_f64()),
        other => other.clone(),
    }
}

/// `instance` plus the schema defaults of properties it leaves out.
fn with_defaults(schema: &Value, instance: &Value) -> Value {
    let mut out = instance.clone();
    if let (Some(props), Some(map)) = (
        schema.get("properties").and_then(Value::as_object),
        out.as_object_mut(),
    ) {
        for (name, prop) in props {
            if let (false, Some(d)) = (map.contains_key(name), prop.get("default")) {
                map.insert(name.clone(), d.clone());
            }
        }
    }
    out
}

/// A value of a different JSON type than `v`.
fn wrong_type(v: &Value) -> Value {
    match v {
        Value::String(_) => json!(12345),
        _ => json!("not the right type"),
    }
}

/// Checks every tool of `definitions` through `parse` (which returns the
/// arguments of the parsed call as JSON). Returns how many instances were checked.
pub fn check<E: std::fmt::Debug>(
    definitions: &Value,
    parse: impl Fn(&str, &str) -> Result<Value, E>,
) -> usize {
    let mut checked = 0;
    for def in definitions.as_array().expect("definitions is an array") {
        let name = def["function"]["name"].as_str().expect("a name");
        let schema = &def["function"]["parameters"];
        let Ok(validator) = jsonschema::validator_for(schema) else {
            continue;
        };
        for full in [false, true] {
            let Some(instance) = object(schema, full, 0) else {
                continue;
            };
            if !validator.is_valid(&instance) {
                continue;
            }
            let back = parse(name, &instance.to_string())
                .unwrap_or_else(|e| panic!("{name}: {instance} was refused: {e:?}"));
            assert_eq!(
                normalize(&back),
                normalize(&with_defaults(schema, &instance)),
                "{name}: round trip changed the instance"
            );
            checked += 1;
            // Each property with a wrong type must be refused.
            for (key, value) in instance.as_object().into_iter().flatten() {
                let mut bad = instance.clone();
                bad[key] = wrong_type(value);
                if !validator.is_valid(&bad) {
                    assert!(
                        parse(name, &bad.to_string()).is_err(),
                        "{name}: {bad} was accepted"
                    );
                    checked += 1;
                }
            }
            // Leaving out a required property must be refused.
            for key in schema["required"].as_array().into_iter().flatten() {
                let mut bad = instance.clone();
                if let (Some(map), Some(key)) = (bad.as_object_mut(), key.as_str()) {
                    map.remove(key);
                }
                if !validator.is_valid(&bad) {
                    assert!(
                        parse(name, &bad.to_string()).is_err(),
                        "{name}: {bad} was accepted"
                    );
                    checked += 1;
                }
            }
        }
    }
    checked
}
