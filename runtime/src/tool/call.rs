//! Turning a model's tool call (name + JSON text) into a typed value: schema
//! validation with every violation listed ([`crate::schema`]), then
//! deserialization.

use super::{CallError, Tool, Violation};
use crate::schema::Schema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::sync::OnceLock;

/// A tool's parameter schema embedded as JSON text, parsed on first use.
#[derive(Debug)]
pub struct SchemaText {
    text: &'static str,
    value: OnceLock<Value>,
}

impl SchemaText {
    /// Wraps schema text produced by the code generator.
    pub const fn new(text: &'static str) -> Self {
        SchemaText {
            text,
            value: OnceLock::new(),
        }
    }

    /// The parsed schema (the generator wrote valid JSON; anything else reads as `{}`).
    pub fn get(&self) -> &Value {
        self.value.get_or_init(|| {
            serde_json::from_str(self.text).unwrap_or_else(|_| Value::Object(Default::default()))
        })
    }
}

/// A tool's schema compiled on first use and kept ([`crate::schema::Schema`]:
/// microseconds, no meta-schema).
#[derive(Debug, Default)]
pub struct CompiledSchema {
    slot: OnceLock<Result<Schema, String>>,
}

impl CompiledSchema {
    /// An empty slot, for a `static`.
    pub const fn new() -> Self {
        CompiledSchema {
            slot: OnceLock::new(),
        }
    }

    /// The compiled `schema` (compiled at the first call), or why it cannot
    /// be compiled.
    pub fn get(&self, schema: &Value) -> Result<&Schema, &str> {
        self.slot
            .get_or_init(|| Schema::compile(schema).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(String::as_str)
    }

    /// Every violation of `arguments` against `schema`.
    ///
    /// # Errors
    ///
    /// The schema cannot be compiled (its message).
    pub fn violations(&self, schema: &Value, arguments: &Value) -> Result<Vec<Violation>, &str> {
        Ok(self.get(schema)?.validate(arguments))
    }

    /// Every violation of `arguments` against `schema`, after the `null`s a
    /// strict-mode model sends for omitted optional properties are removed
    /// from `arguments` ([`Schema::remove_strict_nulls`]: only when the
    /// arguments do not satisfy the schema as sent, and only nulls that the
    /// property's schema does not accept and that no `required` asks for).
    ///
    /// # Errors
    ///
    /// The schema cannot be compiled (its message).
    pub fn check(&self, schema: &Value, arguments: &mut Value) -> Result<Vec<Violation>, &str> {
        let compiled = self.get(schema)?;
        let violations = compiled.validate(arguments);
        if violations.is_empty() || compiled.remove_strict_nulls(arguments) == 0 {
            return Ok(violations);
        }
        Ok(compiled.validate(arguments))
    }
}

/// Parses a call's `arguments` for tool `T`: JSON (an empty string counts as
/// `{}`), then the tool's JSON Schema (every violation, with its JSON
/// pointer), then deserialization into `T`.
pub fn parse_call<T: Tool + DeserializeOwned>(
    arguments: &str,
    validator: &CompiledSchema,
) -> Result<T, CallError> {
    let value = check_arguments(T::NAME, arguments, T::parameters(), validator, false)?;
    serde_json::from_value(value).map_err(|e| deserialize_error(T::NAME, &e.to_string()))
}

/// The arguments of a call of `tool` as JSON (an empty string counts as
/// `{}`), checked against the tool's `schema` (every violation, with its
/// JSON pointer), with the `null`s of omitted optional properties that a
/// strict-mode model sends removed ([`CompiledSchema::check`]).
///
/// With `refuse_undeclared` (chai tools), a top-level key that the schema's
/// `properties` does not declare is a violation too ([`undeclared`]), as in
/// `Runtime::dispatch`.
pub(crate) fn check_arguments(
    tool: &str,
    arguments: &str,
    schema: &Value,
    validator: &CompiledSchema,
    refuse_undeclared: bool,
) -> Result<Value, CallError> {
    let value: Value = if arguments.trim().is_empty() {
        Value::Object(Default::default())
    } else {
        serde_json::from_str(arguments).map_err(|e| CallError::InvalidJson {
            tool: tool.to_owned(),
            message: e.to_string(),
        })?
    };
    let mut value = value;
    let mut violations =
        validator
            .check(schema, &mut value)
            .map_err(|message| CallError::InvalidSchema {
                tool: tool.to_owned(),
                message: message.to_owned(),
            })?;
    if refuse_undeclared {
        violations.extend(undeclared(schema, &value));
    }
    if !violations.is_empty() {
        return Err(CallError::InvalidArguments {
            tool: tool.to_owned(),
            violations,
        });
    }
    Ok(value)
}

/// chai refuses a top-level key that the schema's `properties` object does
/// not declare, whatever `additionalProperties` says (dialects.md §2.1,
/// v0.5 validation); without a `properties` object nothing is undeclared,
/// and with `additionalProperties: false` the schema already says so.
pub(crate) fn undeclared(schema: &Value, args: &Value) -> Vec<Violation> {
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        return Vec::new();
    }
    let (Some(declared), Some(given)) = (
        schema.get("properties").and_then(Value::as_object),
        args.as_object(),
    ) else {
        return Vec::new();
    };
    given
        .keys()
        .filter(|k| !declared.contains_key(k.as_str()))
        .map(|k| Violation {
            pointer: format!("/{}", k.replace('~', "~0").replace('/', "~1")),
            message: format!("undeclared parameter '{k}' (not in schema)"),
        })
        .collect()
}

/// Arguments that passed [`check_arguments`] but do not fit the tool's type
/// (the schema said yes; the generated type is narrower).
pub(crate) fn deserialize_error(tool: &str, message: &str) -> CallError {
    CallError::Deserialize {
        tool: tool.to_owned(),
        message: message.to_owned(),
    }
}

/// The JSON of typed arguments (`null` in the impossible case that
/// serialization fails: generated types have string keys only).
pub fn to_arguments<T: serde::Serialize + ?Sized>(args: &T) -> Value {
    serde_json::to_value(args).unwrap_or(Value::Null)
}

/// The OpenAI function-tool shape of one tool.
///
/// ```
/// let p = serde_json::json!({"type": "object", "properties": {}});
/// let d = toolsmith::tool::call::definition("t", "", &p);
/// assert_eq!(d, serde_json::json!({"type": "function", "function": {"name": "t", "parameters": p}}));
/// ```
pub fn definition(name: &str, description: &str, parameters: &Value) -> Value {
    let mut function = serde_json::Map::new();
    function.insert("name".into(), Value::String(name.to_owned()));
    if !description.is_empty() {
        function.insert("description".into(), Value::String(description.to_owned()));
    }
    function.insert("parameters".into(), parameters.clone());
    let mut tool = serde_json::Map::new();
    tool.insert("type".into(), Value::String("function".into()));
    tool.insert("function".into(), Value::Object(function));
    Value::Object(tool)
}

#[cfg(test)]
mod tests {
    #[test]
    fn undeclared_keys_are_named_like_chai() {
        use serde_json::json;
        let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}});
        let v = undeclared(&schema, &json!({"path": "a", "bogus": 1, "a/b": 2}));
        let shown: Vec<String> = v.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "at /bogus: undeclared parameter 'bogus' (not in schema)",
                "at /a~1b: undeclared parameter 'a/b' (not in schema)"
            ]
        );
        assert!(undeclared(&json!({"type": "object"}), &json!({"x": 1})).is_empty());
        let closed = json!({"properties": {}, "additionalProperties": false});
        assert!(undeclared(&closed, &json!({"x": 1})).is_empty());
    }

    use super::*;
    use crate::tool::{ArgvError, Invocation};

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Args {
        city: String,
        days: Option<u64>,
    }

    static SCHEMA: SchemaText = SchemaText::new(
        r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":0}},"required":["city"],"additionalProperties":false}"#,
    );

    impl Tool for Args {
        const NAME: &'static str = "weather";
        const DESCRIPTION: &'static str = "Weather.";
        fn parameters() -> &'static Value {
            SCHEMA.get()
        }
        fn invocation(&self) -> Result<Invocation, ArgvError> {
            Err(ArgvError::Missing { param: "x".into() })
        }
    }

    static V: CompiledSchema = CompiledSchema::new();

    #[test]
    fn valid_arguments_parse() {
        let a: Args = parse_call(r#"{"city":"Oslo","days":3}"#, &V).unwrap();
        assert_eq!(
            a,
            Args {
                city: "Oslo".into(),
                days: Some(3)
            }
        );
    }

    #[test]
    #[cfg(feature = "validate")]
    fn every_violation_is_listed_with_its_pointer() {
        let e = parse_call::<Args>(r#"{"days":-1,"extra":true}"#, &V).unwrap_err();
        let CallError::InvalidArguments { tool, violations } = e else {
            panic!("expected InvalidArguments, got {e:?}");
        };
        assert_eq!(tool, "weather");
        let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
        assert!(pointers.contains(&"/days"), "{violations:?}");
        assert!(pointers.contains(&""), "{violations:?}");
        assert!(violations.len() >= 3, "{violations:?}");
    }

    #[test]
    fn bad_json_and_empty_arguments() {
        assert!(matches!(
            parse_call::<Args>("{", &V),
            Err(CallError::InvalidJson { .. })
        ));
        // Empty means `{}`, which lacks the required `city`.
        assert!(matches!(
            parse_call::<Args>("  ", &V),
            Err(CallError::InvalidArguments { .. })
        ));
    }

    #[test]
    #[cfg(feature = "validate")]
    fn uncompilable_schema_is_an_error_not_a_panic() {
        let slot = CompiledSchema::new();
        let schema = serde_json::json!({"type": 5});
        assert!(slot.get(&schema).is_err());
    }

    #[test]
    fn definition_shape() {
        let d = Args::definition();
        assert_eq!(d["type"], "function");
        assert_eq!(d["function"]["name"], "weather");
        assert_eq!(d["function"]["description"], "Weather.");
        assert_eq!(d["function"]["parameters"]["required"][0], "city");
    }
}
