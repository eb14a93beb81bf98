//! Generated types ↔ JSON objects, without a serde derive per type.
//!
//! A generated struct implements [`JsonObject`] with one short function per
//! direction (a call of [`put`] / [`take`] per field), and its `Serialize` /
//! `Deserialize` impls are one-line calls of [`serialize_object`] /
//! [`deserialize_object`]. The generic code behind them is instantiated once
//! per field type, not once per generated type, which keeps a user crate's
//! build short however many tools its manifests hold. A generated string
//! enum's `Deserialize` and `FromStr` go through [`deserialize_enum`] and
//! [`enum_index`] with its table of wire values.
//!
//! The JSON is the same as with serde's derive: fields in declaration order,
//! optional fields left out when `None`, serde's messages for a missing or
//! unknown field, an unknown variant or a wrongly typed value.

use serde::de::{self, DeserializeOwned};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// A JSON object as generated code builds and reads it.
pub type Object = Map<String, Value>;

/// A generated struct as a JSON object.
pub trait JsonObject: Sized {
    /// The struct as an object (fields in declaration order).
    ///
    /// # Errors
    ///
    /// When a field cannot be represented in JSON (not for generated types,
    /// whose map keys are strings).
    fn to_object(&self) -> Result<Object, serde_json::Error>;

    /// The struct from an object, with serde's rules and messages.
    ///
    /// # Errors
    ///
    /// A missing required field, a value of the wrong type, or (for
    /// `additionalProperties: false`) an unknown field.
    fn from_object(object: Object) -> Result<Self, serde_json::Error>;
}

/// The object of [`JsonObject::to_object`] for an MCP `tools/call`. A
/// generated struct always has a JSON form (serde_json writes a non-finite
/// number as `null`), so the error arm is unreachable from generated code;
/// it gives an empty object rather than a panic.
pub fn mcp_arguments(object: Result<Object, serde_json::Error>) -> Object {
    object.unwrap_or_default()
}

/// Writes `value` under `key`.
///
/// # Errors
///
/// When the value cannot be represented in JSON.
pub fn put<T: Serialize + ?Sized>(
    object: &mut Object,
    key: &str,
    value: &T,
) -> Result<(), serde_json::Error> {
    object.insert(key.to_owned(), serde_json::to_value(value)?);
    Ok(())
}

/// Writes `value` under `key` unless it is `None` (a non-required property).
///
/// # Errors
///
/// When the value cannot be represented in JSON.
pub fn put_some<T: Serialize>(
    object: &mut Object,
    key: &str,
    value: &Option<T>,
) -> Result<(), serde_json::Error> {
    match value {
        Some(value) => put(object, key, value),
        None => Ok(()),
    }
}

/// The required field `key`.
///
/// # Errors
///
/// serde's "missing field" when absent, or the value's type error.
pub fn take<T: DeserializeOwned>(
    object: &mut Object,
    key: &'static str,
) -> Result<T, serde_json::Error> {
    match object.remove(key) {
        Some(value) => serde_json::from_value(value),
        None => Err(de::Error::missing_field(key)),
    }
}

/// An optional (or nullable) field: absent and `null` are `None`.
///
/// # Errors
///
/// The value's type error.
pub fn take_some<T: DeserializeOwned>(
    object: &mut Object,
    key: &str,
) -> Result<Option<T>, serde_json::Error> {
    match object.remove(key) {
        Some(value) => serde_json::from_value(value),
        None => Ok(None),
    }
}

/// A field with a default: absent is `default()`.
///
/// # Errors
///
/// The value's type error.
pub fn take_or<T: DeserializeOwned>(
    object: &mut Object,
    key: &str,
    default: fn() -> T,
) -> Result<T, serde_json::Error> {
    match object.remove(key) {
        Some(value) => serde_json::from_value(value),
        None => Ok(default()),
    }
}

/// For `additionalProperties: false`: the first key that is not one of
/// `fields` is serde's "unknown field" error.
///
/// # Errors
///
/// The unknown field.
pub fn deny_unknown(
    object: &Object,
    fields: &'static [&'static str],
) -> Result<(), serde_json::Error> {
    match object.keys().find(|k| !fields.contains(&k.as_str())) {
        Some(key) => Err(de::Error::unknown_field(key, fields)),
        None => Ok(()),
    }
}

/// `Serialize` of a generated struct: its object.
///
/// # Errors
///
/// The serializer's, or [`JsonObject::to_object`]'s as a custom error.
pub fn serialize_object<T: JsonObject, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    value
        .to_object()
        .map_err(serde::ser::Error::custom)?
        .serialize(serializer)
}

/// `Deserialize` of a generated struct: an object, then [`JsonObject::from_object`].
///
/// # Errors
///
/// The deserializer's, or the object's as a custom error.
pub fn deserialize_object<'de, T: JsonObject, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    let object = Object::deserialize(deserializer)?;
    T::from_object(object).map_err(de::Error::custom)
}

/// The JSON of a generated struct (`null` in the impossible case that it
/// has no JSON form).
pub fn object_value(object: Result<Object, serde_json::Error>) -> Value {
    object.map_or(Value::Null, Value::Object)
}

/// The index of `text` among a string enum's wire values.
///
/// # Errors
///
/// `unknown <name> value: <text>` (the `FromStr` error of generated enums).
pub fn enum_index(text: &str, name: &str, wire: &[&str]) -> Result<usize, String> {
    wire.iter()
        .position(|w| *w == text)
        .ok_or_else(|| format!("unknown {name} value: {text}"))
}

/// `Deserialize` of a generated string enum: a string, one of `wire`; the
/// index of the value.
///
/// # Errors
///
/// Not a string, or serde's "unknown variant" listing `wire`.
pub fn deserialize_enum<'de, D: Deserializer<'de>>(
    deserializer: D,
    wire: &'static [&'static str],
) -> Result<usize, D::Error> {
    let text = String::deserialize(deserializer)?;
    wire.iter()
        .position(|w| *w == text)
        .ok_or_else(|| de::Error::unknown_variant(&text, wire))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    struct Point {
        x: i64,
        label: Option<String>,
        scale: u64,
    }

    impl JsonObject for Point {
        fn to_object(&self) -> Result<Object, serde_json::Error> {
            let mut o = Object::new();
            put(&mut o, "x", &self.x)?;
            put_some(&mut o, "label", &self.label)?;
            put(&mut o, "scale", &self.scale)?;
            Ok(o)
        }
        fn from_object(mut o: Object) -> Result<Self, serde_json::Error> {
            deny_unknown(&o, &["x", "label", "scale"])?;
            Ok(Point {
                x: take(&mut o, "x")?,
                label: take_some(&mut o, "label")?,
                scale: take_or(&mut o, "scale", || 1)?,
            })
        }
    }

    impl Serialize for Point {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize_object(self, s)
        }
    }

    impl<'de> Deserialize<'de> for Point {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_object(d)
        }
    }

    #[test]
    fn round_trip_in_declaration_order_without_none() {
        let p: Point = serde_json::from_str(r#"{"x": -1}"#).unwrap();
        assert_eq!(
            p,
            Point {
                x: -1,
                label: None,
                scale: 1
            }
        );
        assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"x":-1,"scale":1}"#);
        let p: Point = serde_json::from_value(json!({"scale": 3, "label": null, "x": 2})).unwrap();
        assert_eq!(p.label, None);
        let p: Point = serde_json::from_value(json!({"x": 2, "label": "a"})).unwrap();
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"x":2,"label":"a","scale":1}"#
        );
    }

    #[test]
    fn serde_messages() {
        let e = |v: Value| serde_json::from_value::<Point>(v).unwrap_err().to_string();
        assert_eq!(e(json!({})), "missing field `x`");
        assert_eq!(
            e(json!({"x": 1, "y": 2})),
            "unknown field `y`, expected one of `x`, `label`, `scale`"
        );
        assert_eq!(
            e(json!({"x": "a"})),
            "invalid type: string \"a\", expected i64"
        );
        assert!(e(json!(5)).contains("expected a map"), "{}", e(json!(5)));
    }

    #[test]
    fn enums() {
        const WIRE: &[&str] = &["fast", "deep-scan"];
        assert_eq!(enum_index("deep-scan", "Mode", WIRE), Ok(1));
        assert_eq!(
            enum_index("slow", "Mode", WIRE),
            Err("unknown Mode value: slow".to_owned())
        );
        assert_eq!(deserialize_enum(json!("fast"), WIRE).unwrap(), 0);
        assert_eq!(
            deserialize_enum(json!("slow"), WIRE)
                .unwrap_err()
                .to_string(),
            "unknown variant `slow`, expected `fast` or `deep-scan`"
        );
        assert!(deserialize_enum(json!(1), WIRE).is_err());
    }
}
