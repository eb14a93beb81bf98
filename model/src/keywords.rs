//! Where draft 2020-12 puts subschemas: the applicator keywords by the shape
//! of their value. Shared by the linter's schema checks and the runtime's
//! validator, so that both walk the same places.

/// Keywords whose value is one subschema.
pub const SUBSCHEMA: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value maps names to subschemas (`definitions` is the
/// legacy spelling of `$defs` that the 2020-12 meta-schema still defines;
/// legacy `dependencies` maps names to a subschema *or* a list of names and
/// is left to each walker).
pub const SUBSCHEMA_MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a non-empty array of subschemas.
pub const SUBSCHEMA_LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
