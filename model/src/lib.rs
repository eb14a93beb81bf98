//! # toolsmith-model
//!
//! What a tool manifest declares, once read: the dialect-neutral [`model`],
//! and the positions it remembers ([`source`], the positioned [`tree`]).
//! No parser and no rule lives here, so a program that only runs generated
//! bindings compiles this crate and not the linter (`toolsmith-manifest`),
//! which re-exports these modules under the same paths.

pub mod env;
pub mod keywords;
pub mod model;
pub mod source;
pub mod tree;

pub use model::{Dialect, Manifest};
