//! Confinement: a tool runs inside the files, network and resources its
//! policy grants — or it does not run.
//!
//! | what | mechanism | where the kernel lacks it |
//! |---|---|---|
//! | files: read-only and read-write roots, everything else denied | Landlock ([`landlock`]) | refused (or run with `degrade = warn`) |
//! | network: no `AF_INET`/`AF_INET6`/`AF_PACKET` sockets unless granted | seccomp ([`seccomp`]) | refused (or warned) |
//! | memory and processes of the whole tree | a cgroup made per call ([`limits`], v2 or v1) | `setrlimit` per process; processes refused for root (`RLIMIT_NPROC` does not bind it) |
//! | CPU seconds, largest file, open files | `setrlimit` | — |
//! | descendants | a cgroup, and the subreaper sweep (`crate::descendants`) | — |
//!
//! Everything is prepared in the parent before the spawn (rulesets, the
//! compiled seccomp program, the cgroup and its open `cgroup.procs`); the
//! child only makes system calls between `fork` and `exec` (join the cgroup,
//! `setrlimit`, dropping `CAP_SYS_RESOURCE` from the bounding set,
//! `PR_SET_NO_NEW_PRIVS`, `landlock_restrict_self`, the seccomp `prctl`): no allocation, no lock, nothing that is unsound in the child of
//! a multithreaded parent. Once applied, none of it can be undone by the
//! tool: Landlock and seccomp domains only ever get stricter, and limits
//! lowered with a hard value cannot be raised without privileges.

pub mod landlock;
pub mod limits;
pub mod seccomp;

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What a call is confined to ([`crate::Policy::confine`]).
///
/// ```
/// use toolsmith::confine::{Confinement, Limits};
/// let mut c = Confinement {
///     enabled: Some(true),
///     write: vec!["/srv/notes".into()],
///     limits: Limits { memory: Some(512 << 20), processes: Some(64), ..Limits::default() },
///     ..Confinement::default()
/// };
/// assert!(!c.network);
/// // One tool may connect; every other tool still has no network.
/// c.allow_network_for("fetch_url");
/// assert!(c.network_for("fetch_url") && !c.network_for("list_directory"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Confinement {
    /// Whether calls are confined at all. `None` (the default): the entry
    /// point decides — on for [`crate::Runtime::load`], `toolsmith run` and
    /// `serve` (a generated `policy()` sets `Some(true)`), off for
    /// `Runtime::new(Policy::default())`. `Some(false)` turns it off
    /// everywhere.
    pub enabled: Option<bool>,
    /// Extra read-only roots (the system's program and library directories,
    /// the tool's own directory and its working directory are always readable).
    pub read: Vec<PathBuf>,
    /// Read-write roots (a private temporary directory made for the call,
    /// its `HOME` and `TMPDIR`, is always writable).
    pub write: Vec<PathBuf>,
    /// Whether every tool may open network sockets.
    pub network: bool,
    /// The tools (by wire name) that may open network sockets although
    /// `network` is off: a per-tool grant ([`Confinement::network_for`]).
    pub network_tools: BTreeSet<String>,
    /// Resource limits per call.
    pub limits: Limits,
    /// What to do when a requested protection is unavailable.
    pub degrade: Degrade,
}

impl Confinement {
    /// Whether calls are confined (`enabled` is `Some(true)`).
    pub fn is_enabled(&self) -> bool {
        self.enabled == Some(true)
    }

    /// Lets tool `tool` (its wire name) open network sockets.
    pub fn allow_network_for(&mut self, tool: impl Into<String>) {
        self.network_tools.insert(tool.into());
    }

    /// Whether tool `tool` may open network sockets: `network` is on, or
    /// the tool is in `network_tools`.
    pub fn network_for(&self, tool: &str) -> bool {
        self.network || self.network_tools.contains(tool)
    }

    /// Two policies' confinement for a program that uses both manifests:
    /// confined when either is (off only when one turns it off and neither
    /// on), the roots of both, network for every tool only when both allow
    /// it, the per-tool network grants of both (each names its own tools),
    /// the smaller of each limit, and `refuse` unless both warn.
    pub fn merge(self, other: Confinement) -> Confinement {
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut read = self.read;
        read.extend(other.read);
        let mut write = self.write;
        write.extend(other.write);
        let mut network_tools = self.network_tools;
        network_tools.extend(other.network_tools);
        let enabled = match (self.enabled, other.enabled) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), _) | (_, Some(false)) => Some(false),
            (None, None) => None,
        };
        Confinement {
            enabled,
            read,
            write,
            network: self.network && other.network,
            network_tools,
            limits: Limits {
                memory: min(self.limits.memory, other.limits.memory),
                processes: min(self.limits.processes, other.limits.processes),
                cpu_seconds: min(self.limits.cpu_seconds, other.limits.cpu_seconds),
                file_size: min(self.limits.file_size, other.limits.file_size),
                open_files: min(self.limits.open_files, other.limits.open_files),
            },
            degrade: if self.degrade == Degrade::Warn && other.degrade == Degrade::Warn {
                Degrade::Warn
            } else {
                Degrade::Refuse
            },
        }
    }
}

/// Resource limits of one call (`None`: not limited).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Memory of the whole process tree, in bytes.
    pub memory: Option<u64>,
    /// Processes (and threads) of the whole tree.
    pub processes: Option<u64>,
    /// CPU seconds per process.
    pub cpu_seconds: Option<u64>,
    /// Largest file a process may write, in bytes.
    pub file_size: Option<u64>,
    /// Open files per process.
    pub open_files: Option<u64>,
}

/// When a requested protection cannot be enforced on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Degrade {
    /// Refuse the call, naming the missing mechanism (the default).
    #[default]
    Refuse,
    /// Run it; the outcome and the audit record say what was not enforced.
    Warn,
}

/// The limit that ended a call (`"status": "limit_exceeded", "limit": "memory"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The tree's memory (cgroup OOM kill).
    Memory,
    /// The tree's process count (a fork refused by the cgroup).
    Processes,
    /// A process's CPU seconds (`SIGXCPU`).
    Cpu,
    /// A file grew past the file-size limit (`SIGXFSZ`).
    FileSize,
}

impl Limit {
    /// `memory`, `processes`, `cpu` or `file_size`.
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::Memory => "memory",
            Limit::Processes => "processes",
            Limit::Cpu => "cpu",
            Limit::FileSize => "file_size",
        }
    }
}

/// The directories every confined tool may read: programs, libraries and
/// the few device files programs open.
pub const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/dev/null",
    "/dev/zero",
    "/dev/urandom",
    "/dev/random",
    "/proc/self",
];

/// The device files every confined tool may write: writing to them
/// changes nothing (`> /dev/null` is how programs discard output).
pub const SYSTEM_WRITE: &[&str] = &["/dev/null"];

/// What this machine offers (`toolsmith doctor`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mechanisms {
    /// The Landlock ABI version (0: unavailable).
    pub landlock_abi: u32,
    /// Whether seccomp filters can be installed.
    pub seccomp: bool,
    /// The cgroup version in which the runtime may create groups.
    pub cgroup: Option<&'static str>,
    /// Whether the runtime can be a child subreaper.
    pub subreaper: bool,
}

impl Mechanisms {
    /// Probes the running kernel (creates and removes a probe cgroup).
    pub fn probe() -> Mechanisms {
        Mechanisms {
            landlock_abi: landlock::abi(),
            seccomp: seccomp::available(),
            cgroup: limits::cgroup_version().map(|v| match v {
                limits::CgroupVersion::V2 => "v2",
                limits::CgroupVersion::V1 => "v1",
            }),
            subreaper: cfg!(target_os = "linux"),
        }
    }

    /// The protections of `c` this machine cannot enforce, each named with
    /// its missing mechanism.
    pub fn missing(&self, c: &Confinement) -> Vec<String> {
        let mut missing = Vec::new();
        if !c.is_enabled() {
            return missing;
        }
        if self.landlock_abi == 0 {
            missing.push("filesystem roots: Landlock is not available".to_string());
        }
        if !c.network && !self.seccomp {
            missing.push("no network: seccomp is not available".to_string());
        }
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        if c.limits.processes.is_some() && self.cgroup.is_none() && root {
            missing.push(
                "process limit: no cgroup may be created and RLIMIT_NPROC does not bind root"
                    .to_string(),
            );
        }
        missing
    }
}

/// `CAP_SYS_RESOURCE` (`linux/capability.h`; not in the libc crate).
const CAP_SYS_RESOURCE: libc::c_ulong = 24;

/// Everything prepared for one confined spawn.
#[derive(Debug)]
pub(crate) struct Prepared {
    ruleset: Option<landlock::Ruleset>,
    seccomp: Option<seccompiler::BpfProgram>,
    cgroup: Option<limits::Cgroup>,
    rlimits: limits::Rlimits,
    /// What was requested but is not enforced (`degrade = warn`).
    pub unenforced: Vec<String>,
}

/// Why a call cannot run confined as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unenforceable(pub Vec<String>);

impl Prepared {
    /// Prepares `c` for one call; `read` and `write` are the call's own roots
    /// (its program's directory, working directory, sandbox roots, private
    /// temporary directory).
    pub(crate) fn new(
        c: &Confinement,
        id: &str,
        read: &[&Path],
        write: &[&Path],
    ) -> Result<Prepared, Unenforceable> {
        let mut problems = Vec::new();
        let system: Vec<&Path> = SYSTEM_READ.iter().map(Path::new).collect();
        let all_read: Vec<&Path> = system
            .iter()
            .copied()
            .chain(read.iter().copied())
            .chain(c.read.iter().map(PathBuf::as_path))
            .collect();
        let all_write: Vec<&Path> = SYSTEM_WRITE
            .iter()
            .map(Path::new)
            .chain(write.iter().copied())
            .chain(c.write.iter().map(PathBuf::as_path))
            .collect();
        let ruleset = match landlock::Ruleset::new(&all_read, &all_write) {
            Ok(r) => Some(r),
            Err(e) => {
                problems.push(format!("filesystem roots: Landlock: {e}"));
                None
            }
        };
        let seccomp = if c.network {
            None
        } else if !seccomp::available() {
            problems.push("no network: seccomp is not available".to_string());
            None
        } else {
            match seccomp::no_network() {
                Ok(p) => Some(p),
                Err(e) => {
                    problems.push(format!("no network: seccomp: {e}"));
                    None
                }
            }
        };
        let tree = c.limits.memory.is_some() || c.limits.processes.is_some();
        let cgroup = if tree {
            limits::Cgroup::create(id, c.limits.memory, c.limits.processes).ok()
        } else {
            None
        };
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        if c.limits.processes.is_some() && cgroup.is_none() && root {
            problems.push(
                "process limit: no cgroup may be created and RLIMIT_NPROC does not bind root"
                    .to_string(),
            );
        }
        let rlimits = limits::Rlimits {
            address_space: c.limits.memory.filter(|_| cgroup.is_none()),
            processes: c.limits.processes.filter(|_| cgroup.is_none()),
            cpu_seconds: c.limits.cpu_seconds,
            file_size: c.limits.file_size,
            open_files: c.limits.open_files,
        };
        if !problems.is_empty() && c.degrade == Degrade::Refuse {
            return Err(Unenforceable(problems));
        }
        Ok(Prepared {
            ruleset,
            seccomp,
            cgroup,
            rlimits,
            unenforced: problems,
        })
    }

    /// In the child, between `fork` and `exec`: join the cgroup, set the
    /// limits, restrict the filesystem, then filter the network (last: the
    /// filter would not refuse the calls before it, but keeps the order
    /// independent of what they are).
    ///
    /// # Safety
    /// Call only in the forked child before `exec`.
    pub(crate) unsafe fn apply_in_child(&self, cgroup_fds: &[i32]) -> std::io::Result<()> {
        // SAFETY: forwarded from this function's contract.
        unsafe {
            if self.cgroup.is_some() {
                limits::join(cgroup_fds)?;
            }
            self.rlimits.apply()?;
            // A tool run as root could raise its hard limits again with
            // CAP_SYS_RESOURCE: dropped from the bounding set, it is not in
            // the permitted set after `exec`. Without CAP_SETPCAP (not
            // root) this fails, and then there was nothing to drop.
            libc::prctl(libc::PR_CAPBSET_DROP, CAP_SYS_RESOURCE, 0, 0, 0);
            if let Some(r) = &self.ruleset {
                landlock::restrict_self(r.raw_fd())?;
            }
            if let Some(p) = &self.seccomp {
                seccomp::install(p)?;
            }
        }
        Ok(())
    }

    /// The `cgroup.procs` descriptors (collected before the fork).
    pub(crate) fn cgroup_fds(&self) -> Vec<i32> {
        self.cgroup
            .as_ref()
            .map(limits::Cgroup::procs_fds)
            .unwrap_or_default()
    }

    /// After the call: the limit that ended it, from the cgroup's counters
    /// or the signal that killed the tool; then every process left in the
    /// cgroup is killed.
    pub(crate) fn finish(&self, signal: Option<i32>) -> Option<Limit> {
        let by_signal = match signal {
            Some(libc::SIGXCPU) => Some(Limit::Cpu),
            Some(libc::SIGXFSZ) => Some(Limit::FileSize),
            Some(libc::SIGKILL) if self.rlimits.cpu_seconds.is_some() => None,
            _ => None,
        };
        let by_group = self.cgroup.as_ref().and_then(limits::Cgroup::exceeded);
        if let Some(g) = &self.cgroup {
            g.kill_all();
        }
        by_group.or(by_signal)
    }
}
