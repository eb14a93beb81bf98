//! The spawn engine: argv only, its own session and process group, only
//! stdin/stdout/stderr inherited, cleared environment,
//! null or threaded stdin, bounded capture read on the calling thread
//! ([`crate::pipes`]), deadline, group kill, reap, and a
//! bounded drain of the pipes.

use crate::capture::Rendered;
use crate::outcome::{Outcome, Status};
use crate::pipes::Pipes;
use crate::policy::{MAX_DRAIN, MAX_TIMEOUT};
use std::ffi::OsString;
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A cancel token: [`CancelToken::cancel`] from any thread ends the calls that hold a clone.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that has not fired.
    pub fn new() -> Self {
        Self::default()
    }
    /// Fires the token: running calls kill their process group and return `Cancelled`.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// Whether the token fired.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// One fully checked process to run.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub env: Vec<(String, OsString)>,
    pub stdin: Option<Vec<u8>>,
    pub cwd: Option<PathBuf>,
    /// `HOME` of the tool; `None`: a private empty directory made for this call.
    pub home: Option<PathBuf>,
    pub timeout: Duration,
    pub max_output: usize,
    pub drain: Duration,
    pub kill_group_on_exit: bool,
    /// The policy's confinement (`network` already decided for this tool),
    /// and the call's own roots for it (skill directory, sandbox roots of
    /// its path parameters, temp-file directory; the program's directory,
    /// the working directory and the private home are added here).
    pub confine: crate::confine::Confinement,
    pub read_roots: Vec<PathBuf>,
    pub write_roots: Vec<PathBuf>,
}

/// Why a spawn did not happen: the machine cannot confine the call as asked.
#[derive(Debug)]
pub(crate) struct Unconfinable(pub Vec<String>);

impl std::fmt::Display for Unconfinable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("; "))
    }
}

impl std::error::Error for Unconfinable {}

/// The most the kernel ever accepts for argv + envp (Linux: three quarters
/// of the 8 MiB `_STK_LIM`, whatever the stack limit).
const KERNEL_ARG_CAP: usize = 6 * 1024 * 1024;

/// Room left for what the kernel adds to argv when it runs a `#!` script
/// (interpreter path, its argument, the script path).
const SCRIPT_HEADROOM: usize = 8 * 1024;

/// The byte budget for argv + envp, checked before a spawn:
/// `sysconf(_SC_ARG_MAX)` (a quarter of the stack limit, at least 128 KiB),
/// at most [`KERNEL_ARG_CAP`], minus [`SCRIPT_HEADROOM`]; 128 KiB when
/// `sysconf` gives no answer.
pub(crate) fn arg_limit() -> usize {
    // SAFETY: sysconf has no preconditions.
    let max = unsafe { libc::sysconf(libc::_SC_ARG_MAX) };
    let max = usize::try_from(max).unwrap_or(128 * 1024);
    max.min(KERNEL_ARG_CAP).saturating_sub(SCRIPT_HEADROOM)
}

impl Spec {
    /// The bytes `execve` counts for this spawn: every argv and `NAME=value`
    /// string with its NUL, and one pointer per string (as Linux does),
    /// `HOME` included.
    pub(crate) fn exec_size(&self) -> usize {
        let ptr = std::mem::size_of::<usize>();
        let home = match &self.home {
            Some(home) => home.as_os_str().len(),
            // `<home base>/toolsmith-home-XXXXXX`
            None => home_base().as_os_str().len() + 22,
        };
        let strings = std::iter::once(self.program.as_os_str().len())
            .chain(self.args.iter().map(String::len))
            .chain(self.env.iter().map(|(k, v)| k.len() + 1 + v.len()))
            .chain(std::iter::once("HOME=".len() + home));
        strings.map(|n| n + 1 + ptr).sum()
    }
}

/// Where a call's private `HOME` is made: `$XDG_RUNTIME_DIR` (the user's
/// own 0700 runtime directory) when set, else `/dev/shm`, else the temp
/// directory. The first two are memory file systems: on a disk file system
/// the `rmdir` after each call can cost milliseconds (ext4 mounted with
/// `discard` waits for the device), more than the rest of the call.
pub(crate) fn home_base() -> PathBuf {
    let runtime_dir = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute());
    [runtime_dir, Some(PathBuf::from("/dev/shm"))]
        .into_iter()
        .flatten()
        .find(|d| is_writable_dir(d))
        .unwrap_or_else(std::env::temp_dir)
}

/// True when `dir` is a directory this process may create entries in.
fn is_writable_dir(dir: &std::path::Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `path` is a valid NUL-terminated string.
    let writable = unsafe { libc::access(path.as_ptr(), libc::W_OK | libc::X_OK) } == 0;
    writable && dir.is_dir()
}

/// How often a heartbeat is reported while a call runs.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(1);

/// Runs `spec`; `heartbeat` is called about once a second while it runs.
pub(crate) fn execute(
    spec: &Spec,
    cancel: &CancelToken,
    heartbeat: &mut dyn FnMut(Duration),
) -> std::io::Result<Outcome> {
    // A private HOME (mode 0700, empty) unless the policy names one: a shared
    // HOME lets one call plant files (`.gitconfig`, `.profile`) that run code
    // in the next. Removed when it is dropped, after the call and the drain.
    let private_home = match &spec.home {
        Some(_) => None,
        None => Some(
            tempfile::Builder::new()
                .prefix("toolsmith-home-")
                .permissions(std::fs::Permissions::from_mode(0o700))
                .tempdir_in(home_base())?,
        ),
    };
    let home = spec
        .home
        .as_deref()
        .or(private_home.as_ref().map(tempfile::TempDir::path));
    restore_sigchld();
    crate::descendants::become_subreaper();
    let call_id = crate::descendants::new_call_id();
    let prepared = if spec.confine.is_enabled() {
        let mut read: Vec<&std::path::Path> =
            spec.read_roots.iter().map(PathBuf::as_path).collect();
        if let Some(dir) = spec.program.parent() {
            read.push(dir);
        }
        // The working directory feeds the read roots: the tool's own, or
        // the runtime's, which the tool inherits.
        let inherited = std::env::current_dir().ok();
        if let Some(dir) = spec.cwd.as_ref().or(inherited.as_ref()) {
            read.push(dir);
        }
        let mut write: Vec<&std::path::Path> =
            spec.write_roots.iter().map(PathBuf::as_path).collect();
        if let Some(home) = home {
            write.push(home);
        }
        match crate::confine::Prepared::new(&spec.confine, &call_id, &read, &write) {
            Ok(p) => Some(Arc::new(p)),
            Err(crate::confine::Unenforceable(missing)) => {
                return Err(std::io::Error::other(Unconfinable(missing)));
            }
        }
    } else {
        None
    };
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(home) = home {
        cmd.env("HOME", home);
    }
    cmd.env(crate::descendants::CALL_ID_VAR, &call_id);
    if let (Some(_), Some(home)) = (&prepared, home) {
        cmd.env("TMPDIR", home);
    }
    isolate(&mut cmd, prepared.clone());
    if let Some(dir) = &spec.cwd {
        cmd.current_dir(dir);
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = rustix::process::Pid::from_child(&child);
    crate::descendants::started(pid.as_raw_nonzero().get());
    let result = match supervise(&mut child, spec, &call_id, cancel, heartbeat, start) {
        Ok(mut outcome) => {
            if let Some(p) = &prepared {
                if let Some(limit) = p.finish(outcome.signal)
                    && !matches!(outcome.status, Status::TimedOut | Status::Cancelled)
                {
                    outcome.status = Status::LimitExceeded { limit };
                }
                outcome.unenforced.clone_from(&p.unenforced);
            }
            Ok(outcome)
        }
        Err(e) => {
            // Never leave the group running or the child unreaped, also on error paths.
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            let _ = child.wait();
            crate::descendants::kill_leftovers(&call_id, pid.as_raw_nonzero().get(), &[]);
            Err(e)
        }
    };
    crate::descendants::finished(pid.as_raw_nonzero().get());
    result
}

/// Undoes an inherited "ignore SIGCHLD" (some agent hosts set `SIG_IGN`, or
/// `SA_NOCLDWAIT`, and it survives exec): the kernel then reaps children
/// itself, `waitpid` fails with `ECHILD` and every call would be reported
/// as `spawn_failed: No child processes` although the tool ran. `SIG_IGN`
/// becomes `SIG_DFL` (whose action is also to ignore the signal, but keeps
/// the exit status for `waitpid`); a handler keeps running without
/// `SA_NOCLDWAIT`. This changes the disposition for the whole process, once:
/// a process that spawns tools must be able to wait for them. It also keeps
/// the tools from inheriting the ignored disposition.
fn restore_sigchld() {
    // SAFETY: sigaction with a zeroed (then filled) struct is the documented
    // use; only SIGCHLD's disposition is read and, when it makes children
    // unwaitable, replaced.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGCHLD, std::ptr::null(), &mut old) != 0 {
            return;
        }
        let mut new = old;
        if old.sa_sigaction == libc::SIG_IGN {
            new.sa_sigaction = libc::SIG_DFL;
            new.sa_flags = 0;
            libc::sigemptyset(&mut new.sa_mask);
        } else if old.sa_flags & libc::SA_NOCLDWAIT != 0 {
            new.sa_flags &= !libc::SA_NOCLDWAIT;
        } else {
            return;
        }
        libc::sigaction(libc::SIGCHLD, &new, std::ptr::null_mut());
    }
}

/// The highest descriptor the fallback of [`isolate`] marks close-on-exec
/// (descriptors are numbered below `RLIMIT_NOFILE`, capped to keep the loop short).
const FD_LOOP_CAP: libc::c_int = 1 << 16;

/// Makes the child the leader of a new session (and so of a new process
/// group whose id is its pid: the group kill keeps working) without a
/// controlling terminal, and marks every descriptor above stderr
/// close-on-exec, so that only stdin, stdout and stderr reach the tool (a
/// descriptor the caller left open, such as `9>file` in a shell, does not).
fn isolate(cmd: &mut Command, confine: Option<Arc<crate::confine::Prepared>>) {
    let cgroup_fds = confine.as_ref().map(|c| c.cgroup_fds()).unwrap_or_default();
    // Computed before fork: the child may only make async-signal-safe calls.
    let fd_limit = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .and_then(|n| libc::c_int::try_from(n).ok())
        .unwrap_or(FD_LOOP_CAP)
        .min(FD_LOOP_CAP);
    // SAFETY: the closure runs in the forked child before exec and makes
    // only async-signal-safe system calls (setsid, close_range via syscall,
    // fcntl); it allocates nothing, takes no lock and touches no state
    // shared with other threads. Descriptors are marked close-on-exec rather
    // than closed so that std's own close-on-exec pipe, which reports an exec
    // failure to the parent, keeps working; exec then closes them all.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            #[cfg(target_os = "linux")]
            let done = libc::syscall(
                libc::SYS_close_range,
                3 as libc::c_uint,
                libc::c_uint::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            ) == 0;
            #[cfg(not(target_os = "linux"))]
            let done = false;
            if !done {
                // Kernels before 5.11: one fcntl per possible descriptor.
                for fd in 3..fd_limit {
                    let flags = libc::fcntl(fd, libc::F_GETFD);
                    if flags != -1 && flags & libc::FD_CLOEXEC == 0 {
                        libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
                    }
                }
            }
            if let Some(c) = &confine {
                c.apply_in_child(&cgroup_fds)?;
            }
            Ok(())
        });
    }
}

fn supervise(
    child: &mut Child,
    spec: &Spec,
    call_id: &str,
    cancel: &CancelToken,
    heartbeat: &mut dyn FnMut(Duration),
    start: Instant,
) -> std::io::Result<Outcome> {
    if let (Some(data), Some(mut pipe)) = (spec.stdin.clone(), child.stdin.take()) {
        // Written concurrently with the readers; EPIPE (the tool did not read) is not an error.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&data);
        });
    }
    let mut pipes = Pipes::new(
        child.stdout.take().map(OwnedFd::from),
        child.stderr.take().map(OwnedFd::from),
        spec.max_output,
    );

    // Durations come from manifests and options: saturated (MAX_TIMEOUT,
    // MAX_DRAIN) so that `Instant + Duration` cannot overflow; a panic here
    // would skip the group kill.
    let deadline = start + spec.timeout.min(MAX_TIMEOUT);
    let pid = rustix::process::Pid::from_child(child);
    let pidfd = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok();
    let mut last_beat = start;
    let mut backoff = Duration::from_micros(100);
    let ended = loop {
        let slice = deadline
            .saturating_duration_since(Instant::now())
            .min(Duration::from_millis(50));
        // With a pidfd the child is seen exiting without being reaped, so the
        // group id cannot be reused before the group kill below. The output
        // is read meanwhile, on this thread.
        match &pidfd {
            Some(fd) => {
                if pipes.wait(Some(fd.as_fd()), slice) {
                    break None;
                }
            }
            None => {
                if child.try_wait()?.is_some() {
                    break None;
                }
                pipes.wait(None, backoff.min(slice));
                backoff = (backoff * 2).min(Duration::from_millis(10));
            }
        }
        let now = Instant::now();
        if now >= deadline {
            break Some(Status::TimedOut);
        }
        if cancel.is_cancelled() {
            break Some(Status::Cancelled);
        }
        if now.duration_since(last_beat) >= HEARTBEAT {
            last_beat = now;
            heartbeat(now.duration_since(start));
        }
    };
    // The group is ours: end it (backgrounded children on exit, everything
    // on timeout/cancel), with the processes below it that left it while
    // their ancestry is still known.
    let end_group = ended.is_some() || spec.kill_group_on_exit;
    let mut tree = Vec::new();
    if end_group {
        let raw = pid.as_raw_nonzero().get();
        tree = crate::descendants::kill_tree_of_group(call_id, raw, raw);
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let status = child.wait()?;
    // Descendants that left the group (setsid, double forks, daemons) go
    // too, before the drain, so that none holds the pipes open.
    if end_group {
        crate::descendants::kill_leftovers(call_id, pid.as_raw_nonzero().get(), &tree);
    }

    pipes.drain(Instant::now() + spec.drain.min(MAX_DRAIN));
    let output_incomplete = pipes.is_open();
    let (stdout, stderr) = pipes.render();
    Ok(build(
        status,
        ended,
        stdout,
        stderr,
        output_incomplete,
        start.elapsed(),
    ))
}

fn build(
    status: ExitStatus,
    ended: Option<Status>,
    stdout: Rendered,
    stderr: Rendered,
    output_incomplete: bool,
    duration: Duration,
) -> Outcome {
    let code = status.code();
    let status_kind = match ended {
        Some(s) => s,
        None if code == Some(0) => Status::Success,
        None => Status::Failed { code },
    };
    Outcome {
        status: status_kind,
        exit_code: code,
        signal: status.signal(),
        truncated: stdout.dropped > 0 || stderr.dropped > 0,
        stdout_dropped: stdout.dropped,
        stderr_dropped: stderr.dropped,
        non_utf8: stdout.lossy || stderr.lossy,
        stdout: stdout.text,
        stderr: stderr.text,
        output_incomplete,
        duration,
        result: None,
        unenforced: Vec::new(),
    }
}
