//! See `benches/expansion.rs`.
