//! No process of a call outlives it: descendants that left the tool's
//! process group (`setsid`, double forks, daemons) are found and killed when
//! the call ends.
//!
//! The group kill reaches every process that stayed in the tool's session.
//! A descendant that called `setsid` (or was double-forked into its own
//! group) is out of reach of that kill. So, on Linux:
//!
//! 1. the runtime makes its process a *child subreaper*
//!    (`PR_SET_CHILD_SUBREAPER`, once, at the first call): a process orphaned
//!    below any tool is re-parented to the runtime instead of to `init`;
//! 2. each call's tool gets `TOOLSMITH_CALL_ID` in its environment, a value
//!    unique to the call, which its descendants inherit;
//! 3. when the call ends (after the group kill and the reap), the runtime
//!    lists its own children (`/proc/*/stat`), keeps those
//!    that are not a running call's tool and whose environment carries this
//!    call's id, kills each with its whole subtree (`SIGKILL`) and reaps it.
//!
//! Limits, documented in docs/runtime.md: a descendant that both clears its
//! environment and leaves the session is not recognised (the runtime cannot
//! tell it from an orphan of the host's other children, which it must not
//! kill); the containment work (cgroups) closes that. Being a subreaper is a
//! process-wide setting: orphans of the host's other children are
//! re-parented to the host process too, and the host should reap them as
//! it reaps its own children.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

/// The environment variable that marks a call's processes.
pub(crate) const CALL_ID_VAR: &str = "TOOLSMITH_CALL_ID";

/// Tools of calls that are running now (never treated as leftovers).
static RUNNING: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// A new call id: `<runtime pid>-<counter>`.
pub(crate) fn new_call_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Makes this process a child subreaper (Linux; once).
pub(crate) fn become_subreaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(target_os = "linux")]
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer
        // argument and changes only this process's re-parenting behaviour.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// Registers a call's tool as running.
pub(crate) fn started(pid: i32) {
    if let Ok(mut running) = RUNNING.lock() {
        running.push(pid);
    }
}

/// Unregisters a call's tool (after it was reaped).
pub(crate) fn finished(pid: i32) {
    if let Ok(mut running) = RUNNING.lock() {
        running.retain(|&p| p != pid);
    }
}

/// Kills and reaps every leftover descendant of the call `id` whose tool led
/// process group `group` (already sent `SIGKILL`); returns how many
/// processes were killed.
pub(crate) fn kill_leftovers(id: &str, group: i32) -> usize {
    #[cfg(target_os = "linux")]
    {
        linux::drain_group(group);
        linux::kill_leftovers(id)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (id, group);
        0
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::*;

    /// Whether process `pid`'s environment holds `TOOLSMITH_CALL_ID=id`.
    fn carries(pid: i32, id: &str) -> bool {
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
            return false;
        };
        let wanted = format!("{CALL_ID_VAR}={id}");
        environ
            .split(|&b| b == 0)
            .any(|entry| entry == wanted.as_bytes())
    }

    /// Every process and its parent, from `/proc/*/stat`.
    fn parents() -> HashMap<i32, i32> {
        let mut map = HashMap::new();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return map;
        };
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<i32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
                map.insert(pid, ppid);
            }
        }
        map
    }

    /// Waits (at most 100 ms) until the killed group has no process left,
    /// reaping the members that were re-parented to this subreaper, so that
    /// every descendant that left the group before its parent died is a
    /// child of ours when the sweep looks.
    pub(super) fn drain_group(group: i32) {
        let start = std::time::Instant::now();
        // SAFETY: kill with signal 0 and waitpid on a negative group id only
        // query or reap this process's own children of that group.
        unsafe {
            while libc::kill(-group, 0) == 0 {
                while libc::waitpid(-group, std::ptr::null_mut(), libc::WNOHANG) > 0 {}
                if start.elapsed() > std::time::Duration::from_millis(100) {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        }
    }

    pub(super) fn kill_leftovers(id: &str) -> usize {
        let running: HashSet<i32> = RUNNING
            .lock()
            .map(|r| r.iter().copied().collect())
            .unwrap_or_default();
        // This process's children from `/proc/*/stat` (whose parent field is
        // the parent's process id; the per-thread `children` lists miss an
        // orphan while it moves between threads of this process).
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        let parents = parents();
        let roots: Vec<i32> = parents
            .iter()
            .filter(|(pid, ppid)| **ppid == me && !running.contains(pid) && carries(**pid, id))
            .map(|(pid, _)| *pid)
            .collect();
        if roots.is_empty() {
            return 0;
        }
        // Stop each root first so that it cannot fork while its subtree is
        // listed, then kill the subtree from the top.
        for &root in &roots {
            let _ = rustix::process::Pid::from_raw(root)
                .map(|p| rustix::process::kill_process(p, rustix::process::Signal::STOP));
        }
        let parents = super::linux::parents();
        let mut victims: Vec<i32> = roots.clone();
        let mut i = 0;
        while i < victims.len() {
            let parent = victims[i];
            victims.extend(
                parents
                    .iter()
                    .filter(|(_, pp)| **pp == parent)
                    .map(|(p, _)| *p),
            );
            i += 1;
        }
        for &pid in &victims {
            if let Some(p) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
            }
        }
        // Top-down: when a process is reaped its children have already been
        // re-parented to this subreaper, so each wait is for a child of ours
        // (or fails at once when the process's own parent reaped it first).
        for &pid in &victims {
            if let Some(p) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::waitpid(Some(p), rustix::process::WaitOptions::empty());
            }
        }
        victims.len()
    }
}
