//! Manifest model → Rust tokens, for the `tools!` macro, `toolsmith gen` and `build.rs`.
