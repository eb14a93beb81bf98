//! The state of one agentcli check: the manifest's text and directory, and the
//! findings so far. Each rule family adds its checks to [`Checker`] in its own
//! file; the driver (`mod.rs`) walks the manifest.

use crate::diagnostic::Finding;
use std::path::Path;

pub(super) struct Checker<'a> {
    pub(super) text: &'a str,
    pub(super) dir: &'a Path,
    pub(super) findings: Vec<Finding>,
}

impl Checker<'_> {
    pub(super) fn push(&mut self, f: Finding) {
        self.findings.push(f);
    }
}
