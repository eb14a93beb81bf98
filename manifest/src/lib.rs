//! # toolsmith-manifest
//!
//! The one parser, model and rule engine behind `toolsmith lint`, the
//! `toolsmith::tools!` macro and the runtime. Data flows one way:
//! bytes ([`input`]) → positioned tree ([`json`], skill frontmatter) →
//! dialect checks ([`dialect`]) → [`Finding`]s → positioned [`Diagnostic`]s.
//! Nothing here prints.
//!
//! ```
//! use toolsmith_manifest::lint::{lint, Input, Options};
//! let dir = std::env::temp_dir().join(format!("toolsmith-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("tools.json"), "{\"tools\": [}").unwrap();
//! let report = lint(&[Input::new(dir.join("tools.json"))], &Options::default()).unwrap();
//! assert_eq!(report.diagnostics.0[0].rule, "json/syntax");
//! assert_eq!(report.diagnostics.0[0].start.column, 12);
//! ```

pub mod cap;
pub mod config;
pub mod corpus;
pub mod diagnostic;
pub mod dialect;
pub mod document;
pub mod editor_schema;
pub mod fix;
pub mod frontmatter;
pub mod input;
pub mod json;
pub mod lint;
pub mod options;
pub mod provider;
pub mod recover;
pub mod registry;
pub mod rules;
pub mod schema;
pub mod suggest;
pub mod suppress;
pub mod yaml;

pub use toolsmith_model::{model, source, tree};

pub use diagnostic::{Diagnostic, Diagnostics, Finding};
pub use document::Document;
pub use lint::{Input, lint, load};
pub use model::{Dialect, Manifest};
pub use options::{Options, Profile, Profiles};
pub use provider::Provider;
pub use rules::{Rule, Severity};
