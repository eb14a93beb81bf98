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
//! 3. when the call ends, before the group kill, the group is stopped and
//!    the call's tree is listed by ancestry — the tool's subtree, and this
//!    process's children that are members of the tool's group or carry the
//!    call's id (re-parented here before the end), with their subtrees —
//!    from the per-thread `children` lists of `/proc` (or one scan of
//!    `/proc/*/stat` where the kernel has no such lists), stopped, listed
//!    again and killed with the group; the environment does not matter for
//!    a process found by ancestry, so a `setsid` grandchild with a cleared
//!    environment whose parent is still in the group is found;
//! 4. after the group kill and the reap, this process's children that
//!    carry the call's id (orphaned during the kill) are killed with their
//!    subtrees and reaped.
//!
//! Limit, documented in docs/runtime.md: a descendant that clears its
//! environment *and* loses its ancestry before the call ends (double fork:
//! its parent exits at once, so it is re-parented to this process while the
//! call still runs) carries nothing that ties it to the call: the runtime
//! cannot tell it from an orphan of the host's other children, which it must
//! not kill. A cgroup holds it (a confined call with a memory or process
//! limit gets one, killed whole when the call ends); without one it is
//! bounded only by the drain deadline. Being a subreaper is a process-wide
//! setting: orphans of the host's other children are re-parented to the
//! host process too, and the host should reap them as it reaps its own
//! children.

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

/// Before the group kill of a call whose tool leads process group `group`:
/// stops the group, then finds every process below a member of the group
/// that left it (`setsid`, its own group), by ancestry — the parent links
/// are intact while the group lives, and the environment does not matter —
/// and sends each `SIGKILL`. Returns them, top-down, for
/// [`kill_leftovers`] to reap.
pub(crate) fn kill_tree_of_group(id: &str, tool: i32, group: i32) -> Vec<i32> {
    #[cfg(target_os = "linux")]
    {
        linux::kill_tree_of_group(id, tool, group)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (id, tool, group);
        Vec::new()
    }
}

/// Kills and reaps every leftover descendant of the call `id` whose tool led
/// process group `group` (already sent `SIGKILL`), and reaps `tree` (from
/// [`kill_tree_of_group`]); returns how many processes the sweep killed.
pub(crate) fn kill_leftovers(id: &str, group: i32, tree: &[i32]) -> usize {
    #[cfg(target_os = "linux")]
    {
        linux::drain_group(group);
        linux::reap(tree);
        linux::kill_leftovers(id)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (id, group, tree);
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
        stats()
            .into_iter()
            .map(|(pid, (ppid, _))| (pid, ppid))
            .collect()
    }

    /// Every process's parent and process group, from `/proc/*/stat`.
    fn stats() -> HashMap<i32, (i32, i32)> {
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
            // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let mut fields = rest.split_whitespace().skip(1);
            let ppid = fields.next().and_then(|p| p.parse().ok());
            let pgrp = fields.next().and_then(|p| p.parse().ok());
            if let (Some(ppid), Some(pgrp)) = (ppid, pgrp) {
                map.insert(pid, (ppid, pgrp));
            }
        }
        map
    }

    /// The processes below members of `group` that are not in it
    /// themselves, top-down (breadth first).
    fn left_the_group(stats: &HashMap<i32, (i32, i32)>, group: i32) -> Vec<i32> {
        let mut found: Vec<i32> = Vec::new();
        let mut parents: HashSet<i32> = stats
            .iter()
            .filter(|(_, (_, pgrp))| *pgrp == group)
            .map(|(pid, _)| *pid)
            .collect();
        let members = parents.clone();
        loop {
            let next: Vec<i32> = stats
                .iter()
                .filter(|(pid, (ppid, _))| {
                    parents.contains(ppid) && !members.contains(pid) && !found.contains(pid)
                })
                .map(|(pid, _)| *pid)
                .collect();
            if next.is_empty() {
                return found;
            }
            parents = next.iter().copied().collect();
            found.extend(next);
        }
    }

    /// Whether `/proc/PID/task/TID/children` exists (`CONFIG_PROC_CHILDREN`).
    fn children_files() -> bool {
        static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *HAS.get_or_init(|| {
            std::path::Path::new(&format!("/proc/self/task/{}/children", std::process::id()))
                .exists()
        })
    }

    /// The children of every thread of process `pid`.
    fn children_of(pid: i32) -> Vec<i32> {
        let mut out = Vec::new();
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return out;
        };
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                out.extend(
                    text.split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok()),
                );
            }
        }
        out
    }

    /// The process group of `pid`.
    fn pgrp(pid: i32) -> Option<i32> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let rest = stat.rsplit_once(')')?.1;
        rest.split_whitespace().nth(2)?.parse().ok()
    }

    /// `roots` and everything below them, top-down (breadth first).
    fn subtree(roots: &[i32]) -> Vec<i32> {
        let mut all: Vec<i32> = roots.to_vec();
        let mut i = 0;
        while i < all.len() {
            for child in children_of(all[i]) {
                if !all.contains(&child) {
                    all.push(child);
                }
            }
            i += 1;
        }
        all
    }

    fn signal(pids: &[i32], sig: rustix::process::Signal) {
        for &pid in pids {
            if let Some(p) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(p, sig);
            }
        }
    }

    pub(super) fn kill_tree_of_group(id: &str, tool: i32, group: i32) -> Vec<i32> {
        // SAFETY: kill with a negative id signals only that process group,
        // which is the call's own.
        unsafe {
            libc::kill(-group, libc::SIGSTOP);
        }
        if !children_files() {
            return kill_tree_by_scan(group);
        }
        // The call's processes: the tool's subtree, and this process's
        // children that are the call's (re-parented here before the end:
        // members of its group, or carrying its id), with their subtrees.
        // Walking the children lists costs what the call's tree holds, not
        // what the machine runs.
        let running = running();
        let mut roots = vec![tool];
        for child in children_of(own_pid()) {
            if child != tool
                && !running.contains(&child)
                && (pgrp(child) == Some(group) || carries(child, id))
            {
                roots.push(child);
            }
        }
        let tree = subtree(&roots);
        if tree.len() == 1 {
            return Vec::new();
        }
        // Stopped first so that none forks between the listing and the kill;
        // then listed again for what forked before it was stopped.
        signal(&tree[1..], rustix::process::Signal::STOP);
        let tree = subtree(&roots);
        signal(&tree[1..], rustix::process::Signal::KILL);
        tree[1..].to_vec()
    }

    fn running() -> HashSet<i32> {
        RUNNING
            .lock()
            .map(|r| r.iter().copied().collect())
            .unwrap_or_default()
    }

    fn own_pid() -> i32 {
        i32::try_from(std::process::id()).unwrap_or(i32::MAX)
    }

    /// [`kill_tree_of_group`] without children lists: one scan of `/proc`.
    fn kill_tree_by_scan(group: i32) -> Vec<i32> {
        let stats = stats();
        let outside = left_the_group(&stats, group);
        if outside.is_empty() {
            return outside;
        }
        signal(&outside, rustix::process::Signal::STOP);
        let outside = left_the_group(&super::linux::stats(), group);
        signal(&outside, rustix::process::Signal::KILL);
        outside
    }

    /// Reaps the killed `tree` top-down: once the group is drained, each
    /// process whose parent is gone is a child of this subreaper (`ECHILD`
    /// at once for one reaped by its own parent).
    pub(super) fn reap(tree: &[i32]) {
        for &pid in tree {
            if let Some(p) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::waitpid(Some(p), rustix::process::WaitOptions::empty());
            }
        }
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
        let running = running();
        // This process's children: from the per-thread children lists
        // when the kernel has them (cheap: what this process runs), else
        // from `/proc/*/stat` (whose parent field is the parent's process id).
        let me = own_pid();
        let mine: Vec<i32> = if children_files() {
            children_of(me)
        } else {
            parents()
                .into_iter()
                .filter(|(_, ppid)| *ppid == me)
                .map(|(pid, _)| pid)
                .collect()
        };
        let roots: Vec<i32> = mine
            .into_iter()
            .filter(|pid| !running.contains(pid) && carries(*pid, id))
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
        let victims = if children_files() {
            subtree(&roots)
        } else {
            let parents = parents();
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
            victims
        };
        signal(&victims, rustix::process::Signal::KILL);
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
