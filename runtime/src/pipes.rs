//! A child's stdout and stderr, read on the supervising thread: both pipes
//! non-blocking and `poll`ed together (with the child's pidfd while it
//! runs), each into its bounded [`Capture`]. A call starts no reader
//! threads, and a pipe is always drained while the tool runs, so a tool
//! that writes more than a pipe holds never blocks on it.

use crate::capture::{Capture, Rendered};
use rustix::event::{PollFd, PollFlags, Timespec};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

/// Reads per pipe and wake-up before the caller gets to look at its
/// deadline again (8 KiB each: a tool that never stops writing cannot hold
/// the supervisor in the read loop).
const READS_PER_WAKE: usize = 64;

/// The output pipes of one child: stdout first, then stderr.
pub(crate) struct Pipes {
    open: [Option<OwnedFd>; 2],
    captures: [Capture; 2],
}

impl Pipes {
    /// Takes the child's pipes (absent ones count as ended), each captured
    /// up to `cap` bytes.
    pub(crate) fn new(stdout: Option<OwnedFd>, stderr: Option<OwnedFd>, cap: usize) -> Self {
        let open = [stdout, stderr].map(|fd| {
            // A pipe that cannot be made non-blocking is read as it is: a
            // read then only blocks while poll said it would not.
            fd.inspect(|fd| {
                let _ = rustix::io::ioctl_fionbio(fd, true);
            })
        });
        Self {
            open,
            captures: [Capture::new(cap), Capture::new(cap)],
        }
    }

    /// True while either pipe has not reached its end.
    pub(crate) fn is_open(&self) -> bool {
        self.open.iter().any(Option::is_some)
    }

    /// Waits up to `timeout` for output, or for `also` (the child's pidfd)
    /// to become readable, and reads what is there. True when `also` is
    /// readable.
    pub(crate) fn wait(&mut self, also: Option<BorrowedFd<'_>>, timeout: Duration) -> bool {
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(3);
        let mut which = [usize::MAX; 2];
        for (i, fd) in self.open.iter().enumerate() {
            if let Some(fd) = fd {
                which[i] = fds.len();
                fds.push(PollFd::new(fd, PollFlags::IN));
            }
        }
        let also_at = also.map(|fd| {
            fds.push(PollFd::from_borrowed_fd(fd, PollFlags::IN));
            fds.len() - 1
        });
        let ts = Timespec {
            tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        // EINTR and other failures: nothing is ready; the caller loops.
        if rustix::event::poll(&mut fds, Some(&ts)).unwrap_or(0) == 0 {
            return false;
        }
        let ready: [bool; 2] = which.map(|at| at != usize::MAX && !fds[at].revents().is_empty());
        let also_ready = also_at.is_some_and(|at| !fds[at].revents().is_empty());
        drop(fds);
        for (i, ready) in ready.into_iter().enumerate() {
            if ready {
                self.read(i);
            }
        }
        also_ready
    }

    /// Reads pipe `i` until it would block, ends or fails (then it is
    /// closed), or [`READS_PER_WAKE`] reads were made.
    fn read(&mut self, i: usize) {
        let mut buf = [0u8; 8192];
        for _ in 0..READS_PER_WAKE {
            let Some(fd) = &self.open[i] else { return };
            match rustix::io::read(fd.as_fd(), &mut buf) {
                Ok(0) => {
                    self.open[i] = None;
                    return;
                }
                Ok(n) => self.captures[i].push(&buf[..n]),
                Err(rustix::io::Errno::INTR) => {}
                Err(rustix::io::Errno::AGAIN) => return,
                Err(_) => {
                    self.open[i] = None;
                    return;
                }
            }
        }
    }

    /// Reads until both pipes end or `deadline` passes (a descendant that
    /// escaped the kill may hold a pipe open).
    pub(crate) fn drain(&mut self, deadline: Instant) {
        while self.is_open() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            self.wait(None, left);
        }
    }

    /// The captured stdout and stderr.
    pub(crate) fn render(&self) -> (Rendered, Rendered) {
        (self.captures[0].render(), self.captures[1].render())
    }
}
