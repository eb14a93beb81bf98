//! The state of one agentcli check: the manifest's text and directory, and the
//! findings so far. Each rule family adds its checks to [`Checker`] in its own
//! file; the driver (`mod.rs`) walks the manifest.

use crate::diagnostic::Finding;
use crate::rules::Severity;
use std::path::Path;

pub(super) struct Checker<'a> {
    pub(super) text: &'a str,
    pub(super) dir: &'a Path,
    pub(super) findings: Vec<Finding>,
    /// At most `cap::MAX_PER_RULE` findings of a rule kept in memory.
    pub(super) limiter: crate::cap::Limiter,
    /// Errors the limiter left out (a tool with one is still not in the model).
    pub(super) errors_left_out: usize,
}

impl Checker<'_> {
    pub(super) fn push(&mut self, f: Finding) {
        if self.limiter.admit(&f) {
            self.findings.push(f);
        } else if f.severity == Severity::Error {
            self.errors_left_out += 1;
        }
    }
}
