//! JSON Schema checks shared by every dialect: `parameters`, `schema`,
//! `metadata.params` / `metadata.returns`.

use crate::rules::Rule;

/// Schema rules.
pub static RULES: &[&Rule] = &[];
