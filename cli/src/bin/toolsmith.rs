//! The `toolsmith` binary: everything is in the `toolsmith_cli` library.

fn main() -> std::process::ExitCode {
    toolsmith_cli::main()
}
