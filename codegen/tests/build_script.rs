//! The `build.rs` route: `toolsmith_codegen::build` writes the bindings into
//! `OUT_DIR`, and its error prints the macro's text (also through `Debug`,
//! which `.unwrap()` and `?` in `main` use).

use std::path::Path;

#[test]
fn build_writes_bindings_and_renders_errors_as_text() {
    let out = tempfile::tempdir().expect("temp dir");
    // SAFETY: the only test of this binary; nothing else reads the environment.
    unsafe { std::env::set_var("OUT_DIR", out.path()) };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");

    let written = toolsmith_codegen::build(root.join("fixtures/examples/notes-skill"), "notes.rs")
        .expect("the example builds");
    assert_eq!(written, out.path().join("notes.rs"));
    let code = std::fs::read_to_string(&written).expect("written");
    assert!(code.contains("pub enum ToolCall"), "{code}");
    assert!(
        !code.contains(env!("CARGO_MANIFEST_DIR")),
        "no absolute path of this machine"
    );

    let broken = root.join("runtime/tests/ui/data/syntax/tools.json");
    let error = toolsmith_codegen::build(&broken, "broken.rs").expect_err("syntax error");
    let debug = format!("{error:?}");
    assert_eq!(debug, error.to_string());
    assert!(
        debug.contains("tools.json:3:70: trailing comma [json/syntax]"),
        "{debug}"
    );
    assert!(debug.contains("help: remove the comma"), "{debug}");
    assert!(!out.path().join("broken.rs").exists());
}
