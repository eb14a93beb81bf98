//! # toolsmith
//!
//! The crate applications depend on: typed bindings generated from tool
//! manifests ([`tools!`], [`skill!`]) and the traits they implement, and the
//! [`Runtime`] that executes tool calls for an agent loop: default-deny, no
//! shell, bounded in time and memory, auditable.
//!
//! # Features
//!
//! * `load` (default): manifests loaded at run time — [`Runtime::load`],
//!   [`Runtime::dispatch`], [`Runtime::run_batch`], [`Catalog`] discovery —
//!   through `toolsmith-manifest` (its parsers: jsonc-parser, saphyr).
//!   Implies `validate`.
//! * `validate`: accepted for compatibility and enables nothing more.
//!   Arguments are always validated against the tool's JSON Schema by
//!   toolsmith's own draft 2020-12 validator ([`schema`]: every violation,
//!   with its pointer) before they are deserialized, in every configuration;
//!   it costs one small crate (`jsonschema-regex`, which translates ECMA-262
//!   patterns for the linear-time `regex` crate).
//! * `macros` (default): the [`tools!`] and [`skill!`] macros. They read
//!   the manifest at build time, so `toolsmith-manifest` is compiled for the
//!   build (not linked into the program).
//!
//! With `default-features = false` a crate that uses code written by
//! `toolsmith gen` compiles neither `toolsmith-manifest` nor its parsers;
//! every configuration has one `syn` major version in its tree (README,
//! "Dependencies and build time").

pub mod audit;
mod capture;
#[cfg(feature = "load")]
pub mod catalog;
pub mod confine;
pub mod context;
mod descendants;
pub mod outcome;
pub mod output;
mod pipes;
pub mod plan;
pub mod policy;
mod process;
mod program;
pub mod provider;
pub mod refusal;
pub mod risk;
pub mod runtime;
pub mod sandbox;
pub mod schema;
pub mod tool;

pub use audit::{Audit, Event};
#[cfg(feature = "load")]
pub use catalog::{Catalog, CatalogEntry};
pub use context::compose_system;
pub use outcome::{Outcome, Status};
pub use plan::{OutputPlan, Plan, PostProcessPlan};
pub use policy::{LeadingDash, Policy};
pub use process::CancelToken;
pub use provider::Provider;
pub use refusal::Refusal;
pub use risk::{Mode, Risk, RiskPolicy};
pub use runtime::{EventSink, Runtime};
#[cfg(feature = "load")]
pub use runtime::{LoadError, ModelCall};
pub use sandbox::Sandbox;
pub use tool::{
    ArgvError, Call, CallError, ChaiCall, Invocation, McpTool, PendingResolve, Tool, Violation,
};
#[cfg(feature = "macros")]
pub use toolsmith_macros::{skill, tools};
/// The manifest parsers and rules (`load` feature).
#[cfg(feature = "load")]
pub use toolsmith_manifest as manifest;
/// The dialect-neutral model of tools and execution specs.
pub use toolsmith_model as model;

/// Re-exports used by generated code, so that a user's crate needs only `toolsmith`.
#[doc(hidden)]
pub mod __private {
    pub use serde;
    pub use serde_json;
}

/// The Rust snippets of the README and of `docs/`, compiled (and, unless
/// marked `no_run`, run) by `cargo test --doc` as doctests of this crate, so
/// that documentation cannot drift from the API. Their manifest paths are
/// relative to this crate's directory (`runtime/`).
#[cfg(doctest)]
mod documentation {
    #[doc = include_str!("../../README.md")]
    struct Readme;
    #[doc = include_str!("../../docs/codegen.md")]
    struct Codegen;
    #[doc = include_str!("../../docs/runtime.md")]
    struct RuntimeDoc;
    #[doc = include_str!("../../docs/cli.md")]
    struct Cli;
    #[doc = include_str!("../../docs/chai-lint.md")]
    struct ChaiLint;
    #[doc = include_str!("../../docs/chai-argv-cases.md")]
    struct ChaiArgvCases;
    #[doc = include_str!("../../docs/skill-differences.md")]
    struct SkillDifferences;
}
