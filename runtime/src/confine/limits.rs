//! Resource limits of a call: for the whole process tree through a cgroup
//! the runtime creates (memory, processes; v2, or the v1 `memory` and
//! `pids` hierarchies), and per process with `setrlimit` (CPU seconds,
//! largest file written, open files, and memory and processes when no
//! cgroup can be made).

use super::Limit;
use std::fs;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

/// The cgroup version usable by this process, if it may create groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CgroupVersion {
    /// The unified hierarchy with the memory and pids controllers delegated.
    V2,
    /// The v1 `memory` and `pids` hierarchies.
    V1,
}

/// This process's cgroup path in one hierarchy (`0::/x` for v2, `N:memory:/x` for v1).
fn own_path(controller: &str) -> Option<String> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = if controller.is_empty() {
            controllers.is_empty()
        } else {
            controllers.split(',').any(|c| c == controller)
        };
        hit.then(|| path.to_string())
    })
}

/// The directories where this process may create a child cgroup, per controller.
fn parents() -> Option<(CgroupVersion, Vec<(&'static str, PathBuf)>)> {
    let root = Path::new("/sys/fs/cgroup");
    if root.join("cgroup.controllers").exists() {
        let own = root.join(own_path("")?.trim_start_matches('/'));
        let controllers = fs::read_to_string(own.join("cgroup.subtree_control")).ok()?;
        let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
        return (has("memory") && has("pids")).then(|| {
            (
                CgroupVersion::V2,
                vec![("memory", own.clone()), ("pids", own)],
            )
        });
    }
    let mut dirs = Vec::new();
    for controller in ["memory", "pids"] {
        let own = own_path(controller)?;
        dirs.push((
            controller,
            root.join(controller).join(own.trim_start_matches('/')),
        ));
    }
    Some((CgroupVersion::V1, dirs))
}

/// Whether a cgroup can be created here (probed by creating and removing one).
pub fn cgroup_version() -> Option<CgroupVersion> {
    let (version, dirs) = parents()?;
    let name = format!("toolsmith-probe-{}", std::process::id());
    let mut made = Vec::new();
    let ok = dirs.iter().all(|(_, dir)| {
        let d = dir.join(&name);
        let ok = fs::create_dir(&d).is_ok();
        if ok {
            made.push(d);
        }
        ok
    });
    for d in made {
        let _ = fs::remove_dir(d);
    }
    ok.then_some(version)
}

/// A cgroup made for one call.
#[derive(Debug)]
pub struct Cgroup {
    version: CgroupVersion,
    /// (controller, directory); for v2 both name the same directory.
    dirs: Vec<(&'static str, PathBuf)>,
    /// `cgroup.procs` of each directory, opened before the spawn.
    procs: Vec<OwnedFd>,
}

impl Cgroup {
    /// Creates the group with the memory and process limits.
    pub fn create(
        id: &str,
        memory: Option<u64>,
        processes: Option<u64>,
    ) -> std::io::Result<Cgroup> {
        let (version, parents) =
            parents().ok_or_else(|| std::io::Error::other("no cgroup may be created"))?;
        let mut dirs: Vec<(&'static str, PathBuf)> = Vec::new();
        for (controller, parent) in parents {
            let dir = parent.join(format!("toolsmith-{id}"));
            if !dirs.iter().any(|(_, d)| *d == dir) {
                fs::create_dir(&dir)?;
            }
            dirs.push((controller, dir));
        }
        let mut group = Cgroup {
            version,
            dirs,
            procs: Vec::new(),
        };
        let write = |dir: &Path, file: &str, value: String| fs::write(dir.join(file), value);
        for (controller, dir) in &group.dirs {
            match (*controller, version) {
                ("memory", CgroupVersion::V2) => {
                    if let Some(m) = memory {
                        write(dir, "memory.max", m.to_string())?;
                        let _ = write(dir, "memory.swap.max", "0".into());
                    }
                }
                ("memory", CgroupVersion::V1) => {
                    if let Some(m) = memory {
                        write(dir, "memory.limit_in_bytes", m.to_string())?;
                        let _ = write(dir, "memory.memsw.limit_in_bytes", m.to_string());
                    }
                }
                ("pids", _) => {
                    if let Some(p) = processes {
                        write(dir, "pids.max", p.to_string())?;
                    }
                }
                _ => {}
            }
        }
        let mut seen: Vec<&PathBuf> = Vec::new();
        for (_, dir) in &group.dirs {
            if seen.contains(&dir) {
                continue;
            }
            seen.push(dir);
            let file = fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))?;
            group.procs.push(OwnedFd::from(file));
        }
        Ok(group)
    }

    /// The `cgroup.procs` descriptors the child writes its pid to.
    pub fn procs_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(AsRawFd::as_raw_fd).collect()
    }

    fn counter(&self, controller: &str, file: &str, key: &str) -> u64 {
        let Some((_, dir)) = self.dirs.iter().find(|(c, _)| *c == controller) else {
            return 0;
        };
        fs::read_to_string(dir.join(file))
            .ok()
            .and_then(|text| {
                text.lines().find_map(|l| {
                    let (k, v) = l.split_once(' ')?;
                    (k == key).then(|| v.trim().parse().ok()).flatten()
                })
            })
            .unwrap_or(0)
    }

    /// Which whole-tree limit the call ran into, if any.
    pub fn exceeded(&self) -> Option<Limit> {
        let memory_file = match self.version {
            CgroupVersion::V2 => "memory.events",
            CgroupVersion::V1 => "memory.oom_control",
        };
        if self.counter("memory", memory_file, "oom_kill") > 0 {
            return Some(Limit::Memory);
        }
        if self.counter("pids", "pids.events", "max") > 0 {
            return Some(Limit::Processes);
        }
        None
    }

    /// Kills every process left in the group (all of the call's descendants,
    /// wherever they moved in the process tree).
    pub fn kill_all(&self) {
        for _ in 0..100 {
            let mut any = false;
            for (_, dir) in &self.dirs {
                let Ok(text) = fs::read_to_string(dir.join("cgroup.procs")) else {
                    continue;
                };
                for pid in text
                    .split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok())
                {
                    any = true;
                    if let Some(p) = rustix::process::Pid::from_raw(pid) {
                        let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
                    }
                }
            }
            if !any {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.kill_all();
        for (_, dir) in &self.dirs {
            // Empty now (or soon: a killed process leaves its group when reaped).
            for _ in 0..50 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
}

/// In the child: move itself into the group. Only system calls and a stack buffer.
///
/// # Safety
/// Call only between `fork` and `exec`; the descriptors must be open `cgroup.procs` files.
pub unsafe fn join(fds: &[RawFd]) -> std::io::Result<()> {
    let mut buf = [0u8; 24];
    let mut pid = std::process::id();
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (pid % 10) as u8;
        pid /= 10;
        if pid == 0 {
            break;
        }
    }
    let digits = &buf[i..];
    for &fd in fds {
        // SAFETY: fd is an open descriptor; digits is a valid buffer.
        let n = unsafe { libc::write(fd, digits.as_ptr().cast(), digits.len()) };
        if n < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Per-process limits (`setrlimit`), all optional.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rlimits {
    /// Address space in bytes (memory, when no cgroup holds it).
    pub address_space: Option<u64>,
    /// Processes of the user (when no cgroup holds it; not enforced for root).
    pub processes: Option<u64>,
    /// CPU seconds (SIGXCPU at the limit, SIGKILL a second later).
    pub cpu_seconds: Option<u64>,
    /// Largest file written, in bytes (SIGXFSZ).
    pub file_size: Option<u64>,
    /// Open descriptors.
    pub open_files: Option<u64>,
}

impl Rlimits {
    /// In the child: apply every set limit. Only system calls.
    ///
    /// # Safety
    /// Call only between `fork` and `exec`.
    pub unsafe fn apply(&self) -> std::io::Result<()> {
        let set = |resource: libc::__rlimit_resource_t, soft: u64, hard: u64| {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            // SAFETY: a valid rlimit struct for a known resource.
            if unsafe { libc::setrlimit(resource, &limit) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        };
        if let Some(v) = self.address_space {
            set(libc::RLIMIT_AS, v, v)?;
        }
        if let Some(v) = self.processes {
            set(libc::RLIMIT_NPROC, v, v)?;
        }
        if let Some(v) = self.cpu_seconds {
            set(libc::RLIMIT_CPU, v, v.saturating_add(1))?;
        }
        if let Some(v) = self.file_size {
            set(libc::RLIMIT_FSIZE, v, v)?;
        }
        if let Some(v) = self.open_files {
            set(libc::RLIMIT_NOFILE, v, v)?;
        }
        Ok(())
    }
}
