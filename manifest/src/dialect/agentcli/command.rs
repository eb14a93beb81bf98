//! A tool's `command`: goagent needs at least the program
//! (`agentcli/command-empty`, checked in `Checker::tool` in `mod.rs`), and a
//! relative `command[0]` must stay inside `./tools/bin/` next to the manifest
//! (rules 5–8 of `LoadManifest`, decided lexically by [`super::program`]). An
//! absolute one is accepted by goagent and warned about here.

use super::checker::Checker;
use super::go::quote;
use super::program::{self, Program};
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::tree::Node;
use std::path::PathBuf;

/// `agentcli/command-empty` (error): `command` needs at least the program.
pub static COMMAND_EMPTY: Rule = Rule::error(
    "agentcli/command-empty",
    "agentcli",
    "`command` needs at least the program",
);
/// `agentcli/command-parent` (error): a relative `command[0]` starts with `..` after cleaning.
pub static COMMAND_PARENT: Rule = Rule::error(
    "agentcli/command-parent",
    "agentcli",
    "a relative `command[0]` starts with `..` after cleaning",
);
/// `agentcli/command-escapes-bin` (error): a `command[0]` written under ./tools/bin leaves it after cleaning.
pub static COMMAND_ESCAPES_BIN: Rule = Rule::error(
    "agentcli/command-escapes-bin",
    "agentcli",
    "a `command[0]` written under ./tools/bin leaves it after cleaning",
);
/// `agentcli/command-not-in-bin` (error): a relative `command[0]` must start with ./tools/bin/.
pub static COMMAND_NOT_IN_BIN: Rule = Rule::error(
    "agentcli/command-not-in-bin",
    "agentcli",
    "a relative `command[0]` must start with ./tools/bin/",
);
/// `agentcli/command-resolve` (error): `command[0]` cannot be made absolute.
pub static COMMAND_RESOLVE: Rule = Rule::error(
    "agentcli/command-resolve",
    "agentcli",
    "`command[0]` cannot be made absolute",
);
/// `agentcli/absolute-command` (warning): an absolute `command[0]` is accepted by goagent (meant for tests) but ties the manifest to one machine.
pub static ABSOLUTE_COMMAND: Rule = Rule::warning(
    "agentcli/absolute-command",
    "agentcli",
    "an absolute `command[0]` is accepted by goagent (meant for tests) but ties the manifest to one machine",
);

impl Checker<'_> {
    /// Rules 5–8 on `command[0]`; returns the resolved program.
    pub(super) fn program(&mut self, prefix: &str, cmd0: &str, node: &Node) -> Option<PathBuf> {
        let finding = |rule: &'static Rule, message: String| {
            Finding::new(rule, node.span, node.pointer(), message)
        };
        let norm = match program::check(cmd0) {
            Program::Absolute => {
                self.push(
                    finding(
                        &ABSOLUTE_COMMAND,
                        format!("{prefix}: command[0] {} is absolute; goagent accepts it unchecked (meant for tests)", quote(cmd0)),
                    )
                    .with_help("ship the program next to the manifest under ./tools/bin/"),
                );
                return Some(PathBuf::from(cmd0));
            }
            Program::Ok { norm } => norm,
            Program::Parent => {
                self.push(finding(
                    &COMMAND_PARENT,
                    format!("{prefix}: command[0] must not start with '..' or escape tools/bin (got {})", quote(cmd0)),
                ).with_help("keep the program inside ./tools/bin/ next to tools.json"));
                return None;
            }
            Program::EscapesBin { norm } => {
                self.push(finding(
                    &COMMAND_ESCAPES_BIN,
                    format!(
                        "{prefix}: command[0] escapes ./tools/bin after normalization (got {} -> {})",
                        quote(cmd0),
                        quote(&norm)
                    ),
                ).with_help("name a file directly inside ./tools/bin/, without `..`"));
                return None;
            }
            Program::NotInBin { norm } => {
                let base = norm.rsplit('/').next().unwrap_or(&norm);
                self.push(finding(
                    &COMMAND_NOT_IN_BIN,
                    format!("{prefix}: relative command[0] must start with ./tools/bin/"),
                ).with_help(format!(
                    "relative programs live under ./tools/bin/ next to tools.json, e.g. \"./tools/bin/{base}\""
                )));
                return None;
            }
        };
        let relative = norm.trim_start_matches("./");
        match std::path::absolute(self.dir.join(relative)) {
            Ok(path) => Some(path),
            Err(e) => {
                self.push(finding(
                    &COMMAND_RESOLVE,
                    format!("{prefix}: resolve command[0]: {e}"),
                ));
                None
            }
        }
    }
}
