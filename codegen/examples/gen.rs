//! `cargo run -p toolsmith-codegen --example gen -- PATH`: prints the code
//! that `tools!` / `skill!` generate for PATH (what `toolsmith gen` prints).

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: gen PATH");
        return std::process::ExitCode::from(2);
    };
    match toolsmith_codegen::generate_with_warnings(path.as_ref()) {
        Ok(g) => {
            eprint!("{}", g.warnings);
            print!("{}", g.code);
            std::process::ExitCode::SUCCESS
        }
        Err(d) => {
            eprint!("{d}");
            std::process::ExitCode::FAILURE
        }
    }
}
