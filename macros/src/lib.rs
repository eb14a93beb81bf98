//! The `tools!` and `skill!` proc-macros; the work is done in `toolsmith-codegen`.

use proc_macro::TokenStream;

/// Generates typed bindings for a tool manifest (path relative to `CARGO_MANIFEST_DIR`).
#[proc_macro]
pub fn tools(input: TokenStream) -> TokenStream {
    let _ = input;
    TokenStream::new()
}

/// Generates constants and types for a skill file.
#[proc_macro]
pub fn skill(input: TokenStream) -> TokenStream {
    let _ = input;
    TokenStream::new()
}
