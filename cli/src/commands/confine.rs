//! The confinement flags shared by the commands that run tools (`run`).

use clap::Args;
use std::path::PathBuf;
use toolsmith::Policy;
use toolsmith::confine::{Confinement, Degrade};

/// Where a tool may read, write and connect, and what it may use.
#[derive(Debug, Clone, Args)]
pub struct ConfineArgs {
    /// Run the tool unconfined (no filesystem, network or resource limits).
    #[arg(long, conflicts_with_all = ["read", "write", "allow_network", "allow_network_for", "policy"])]
    pub no_confine: bool,
    /// A confinement policy file (JSON: `enabled`, `read`, `write`,
    /// `network`, `network_tools`, `limits` {`memory`, `processes`,
    /// `cpu_seconds`, `file_size`, `open_files`}, `degrade`); flags add to it.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// A directory the tool may read (repeatable).
    #[arg(long, value_name = "DIR")]
    pub read: Vec<PathBuf>,
    /// A directory the tool may read and write (repeatable; the `--sandbox`
    /// roots are writable too for a chai tool with a `writePath` parameter).
    #[arg(long, value_name = "DIR")]
    pub write: Vec<PathBuf>,
    /// Let every tool open network sockets.
    #[arg(long)]
    pub allow_network: bool,
    /// Let tool TOOL (its wire name) open network sockets; the others
    /// still have none (repeatable).
    #[arg(long, value_name = "TOOL")]
    pub allow_network_for: Vec<String>,
    /// Memory of the tool's whole process tree, in bytes.
    #[arg(long, value_name = "BYTES")]
    pub limit_memory: Option<u64>,
    /// Processes of the tool's whole process tree.
    #[arg(long, value_name = "N")]
    pub limit_processes: Option<u64>,
    /// CPU seconds per process.
    #[arg(long, value_name = "SECS")]
    pub limit_cpu: Option<u64>,
    /// Largest file a process may write, in bytes.
    #[arg(long, value_name = "BYTES")]
    pub limit_file_size: Option<u64>,
    /// Open files per process.
    #[arg(long, value_name = "N")]
    pub limit_open_files: Option<u64>,
    /// When this machine cannot enforce a protection: `refuse` the call
    /// (default) or `warn` (run it; the outcome lists what was not enforced).
    #[arg(long, value_name = "WHAT", value_parser = ["refuse", "warn"])]
    pub degrade: Option<String>,
}

/// Reads a confinement policy file.
pub fn read_policy(path: &std::path::Path) -> Result<Confinement, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read policy {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("policy {}: {e}", path.display()))
}

impl ConfineArgs {
    /// The confinement these flags ask for: on unless `--no-confine`.
    pub fn confinement(&self) -> Result<Confinement, String> {
        if self.no_confine {
            return Ok(Confinement {
                enabled: Some(false),
                ..Confinement::default()
            });
        }
        let mut c = match &self.policy {
            Some(path) => read_policy(path)?,
            None => Confinement::default(),
        };
        // On unless the policy file says `"enabled": false`.
        c.enabled.get_or_insert(true);
        c.read.extend(self.read.iter().cloned());
        c.write.extend(self.write.iter().cloned());
        c.network |= self.allow_network;
        c.network_tools
            .extend(self.allow_network_for.iter().cloned());
        let limits = &mut c.limits;
        limits.memory = self.limit_memory.or(limits.memory);
        limits.processes = self.limit_processes.or(limits.processes);
        limits.cpu_seconds = self.limit_cpu.or(limits.cpu_seconds);
        limits.file_size = self.limit_file_size.or(limits.file_size);
        limits.open_files = self.limit_open_files.or(limits.open_files);
        match self.degrade.as_deref() {
            Some("warn") => c.degrade = Degrade::Warn,
            Some(_) => c.degrade = Degrade::Refuse,
            None => {}
        }
        Ok(c)
    }

    /// Sets the policy's confinement.
    pub fn apply(&self, policy: &mut Policy) -> Result<(), String> {
        policy.confine = self.confinement()?;
        Ok(())
    }
}
