//! # toolsmith
//!
//! The crate applications depend on: typed bindings generated from tool
//! manifests ([`tools!`], [`skill!`]) and the traits they implement, and the
//! [`Runtime`] that executes tool calls for an agent loop: default-deny, no
//! shell, bounded in time and memory, auditable.

pub mod audit;
mod capture;
pub mod catalog;
pub mod context;
pub mod outcome;
pub mod output;
pub mod plan;
pub mod policy;
mod process;
mod program;
pub mod refusal;
pub mod risk;
pub mod runtime;
pub mod sandbox;
pub mod tool;

pub use audit::{Audit, Event};
pub use catalog::{Catalog, CatalogEntry};
pub use context::compose_system;
pub use outcome::{Outcome, Status};
pub use plan::{OutputPlan, Plan, PostProcessPlan};
pub use policy::{LeadingDash, Policy};
pub use process::CancelToken;
pub use refusal::Refusal;
pub use risk::{Mode, Risk, RiskPolicy};
pub use runtime::{EventSink, LoadError, ModelCall, Runtime};
pub use sandbox::Sandbox;
pub use tool::{ArgvError, Call, CallError, ChaiCall, Invocation, PendingResolve, Tool, Violation};
pub use toolsmith_macros::{skill, tools};
pub use toolsmith_manifest as manifest;

/// Re-exports used by generated code, so that a user's crate needs only `toolsmith`.
#[doc(hidden)]
pub mod __private {
    pub use serde;
    pub use serde_json;
}
