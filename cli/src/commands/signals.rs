//! SIGTERM and SIGINT during `toolsmith run`: the tool runs in its own
//! session, so a signal sent to toolsmith (or Ctrl-C, which reaches the
//! terminal's foreground group) would leave it running. The handler only
//! writes the signal number to a self-pipe; a thread reading the pipe fires
//! the call's [`CancelToken`], so the runtime kills the tool's process group,
//! reaps it, drains the pipes (bounded) and returns `Cancelled`.

use std::sync::atomic::{AtomicI32, Ordering};
use toolsmith::CancelToken;

/// The write end of the self-pipe (-1 before installation).
static WAKE_FD: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_signal(signal: libc::c_int) {
    // Async-signal-safe: an atomic load and write(2); errno is preserved.
    // SAFETY: __errno_location returns this thread's errno; the byte buffer
    // lives for the call; a full pipe makes the non-blocking write fail.
    unsafe {
        let errno = *libc::__errno_location();
        let fd = WAKE_FD.load(Ordering::Relaxed);
        if fd >= 0 {
            let byte = u8::try_from(signal).unwrap_or(0);
            libc::write(fd, std::ptr::from_ref(&byte).cast(), 1);
        }
        *libc::__errno_location() = errno;
    }
}

/// Makes SIGTERM and SIGINT cancel `token` for the rest of the process.
pub fn cancel_on_termination(token: CancelToken) -> std::io::Result<()> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into the array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let [read_fd, write_fd] = fds;
    // SAFETY: fcntl on the descriptor just created.
    unsafe {
        let flags = libc::fcntl(write_fd, libc::F_GETFL);
        libc::fcntl(write_fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    WAKE_FD.store(write_fd, Ordering::Relaxed);
    std::thread::spawn(move || {
        let mut byte = 0u8;
        loop {
            // SAFETY: reads one byte into `byte` from the pipe this thread owns.
            let n = unsafe { libc::read(read_fd, std::ptr::from_mut(&mut byte).cast(), 1) };
            if n == 1 {
                token.cancel();
            } else if n == 0
                || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
            {
                return;
            }
        }
    });
    for signal in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: a zeroed sigaction with a handler that makes only
        // async-signal-safe calls; SA_RESTART keeps other reads going.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    Ok(())
}
