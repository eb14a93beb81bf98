//! # toolsmith
//!
//! The crate applications depend on: typed bindings generated from tool
//! manifests ([`tools!`], [`skill!`]) and the traits they implement.

pub mod tool;

pub use tool::{ArgvError, CallError, Invocation, PendingResolve, Tool, Violation};
pub use toolsmith_macros::{skill, tools};
pub use toolsmith_manifest as manifest;

/// Re-exports used by generated code, so that a user's crate needs only `toolsmith`.
#[doc(hidden)]
pub mod __private {
    pub use serde;
    pub use serde_json;
}
