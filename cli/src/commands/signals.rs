//! SIGTERM and SIGINT during `toolsmith run`: the tool runs in its own
//! session, so a signal sent to toolsmith (or Ctrl-C, which reaches the
//! terminal's foreground group) would leave it running. The handler fires
//! the call's [`CancelToken`] (one atomic store), and the signal interrupts
//! the runtime's `poll`, so the runtime at once kills the tool's process
//! group, reaps it, drains the pipes (bounded) and returns `Cancelled`.

use std::sync::atomic::{AtomicPtr, Ordering};
use toolsmith::CancelToken;

/// The token the handler fires (null before installation); leaked, so it
/// lives as long as the handler may run.
static TOKEN: AtomicPtr<CancelToken> = AtomicPtr::new(std::ptr::null_mut());

extern "C" fn on_signal(_signal: libc::c_int) {
    let token = TOKEN.load(Ordering::Acquire);
    // SAFETY: a non-null pointer is the leaked token, never freed; `cancel`
    // is one atomic store (async-signal-safe: no allocation, no lock).
    if let Some(token) = unsafe { token.as_ref() } {
        token.cancel();
    }
}

/// Makes SIGTERM and SIGINT cancel `token` for the rest of the process.
pub fn cancel_on_termination(token: CancelToken) -> std::io::Result<()> {
    TOKEN.store(Box::into_raw(Box::new(token)), Ordering::Release);
    for signal in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: a zeroed sigaction with a handler that makes only
        // async-signal-safe calls; SA_RESTART keeps other reads going (the
        // runtime's `poll` returns early on a signal whatever the flag).
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
