//! The audit sink (JSON Lines) and the lifecycle events a UI can follow.

use crate::policy::redact_text;
use serde_json::{Map, Value};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Writes one JSON object per line: `tool_call_requested`, `tool_call_completed`,
/// `tool_call_rejected`, `resolve_command`. Argument values appear only in
/// `argv` and in refusal reasons; [`crate::Policy::redact`] values are
/// replaced in every string of every record; environment variables appear by
/// name only.
pub struct Audit {
    out: Mutex<Sink>,
}

/// Where records go.
enum Sink {
    /// An `O_APPEND` file, possibly shared with other writers (processes).
    File(std::fs::File),
    /// Any writer (records are still written with one `write_all` each).
    Writer(Box<dyn Write + Send>),
}

impl std::fmt::Debug for Audit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Audit")
    }
}

impl Audit {
    /// An audit sink writing to `out`.
    pub fn new(out: impl Write + Send + 'static) -> Self {
        Audit {
            out: Mutex::new(Sink::Writer(Box::new(out))),
        }
    }

    /// An audit sink appending to the file at `path` (created if absent).
    ///
    /// Several writers (threads with their own sink, other processes) may
    /// share the file: each record is one `write` on an `O_APPEND` file,
    /// which the kernel appends whole; a record longer than `PIPE_BUF` is
    /// also written under an exclusive `flock`, so that writers on
    /// filesystems that split large writes do not interleave either.
    pub fn append_to(path: &Path) -> std::io::Result<Self> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(Audit {
            out: Mutex::new(Sink::File(file)),
        })
    }

    /// Writes one event, with every `redact` value replaced by `[REDACTED]`
    /// in every string of the record. I/O errors are ignored: auditing never
    /// fails a call.
    pub(crate) fn record(&self, event: &str, mut fields: Value, redact: &[String]) {
        if redact.iter().any(|s| !s.is_empty()) {
            redact_strings(&mut fields, redact);
        }
        let mut obj = Map::new();
        let ts = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or(0);
        obj.insert("ts_ms".into(), ts.into());
        obj.insert("event".into(), event.into());
        if let Value::Object(fields) = fields {
            obj.extend(fields);
        }
        let mut line = Value::Object(obj).to_string();
        line.push('\n');
        let mut out = match self.out.lock() {
            Ok(out) => out,
            Err(poisoned) => poisoned.into_inner(),
        };
        match &mut *out {
            Sink::File(file) => append_record(file, line.as_bytes()),
            Sink::Writer(w) => {
                let _ = w.write_all(line.as_bytes());
                let _ = w.flush();
            }
        }
    }
}

/// One record, one `write` (the kernel does not split a regular-file write
/// except on error or signal); above `PIPE_BUF` under an exclusive `flock`.
fn append_record(file: &mut std::fs::File, record: &[u8]) {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    let locked = record.len() > libc::PIPE_BUF
        // SAFETY: flock on a descriptor this sink owns; blocks until granted.
        && unsafe { libc::flock(fd, libc::LOCK_EX) } == 0;
    let _ = file.write_all(record);
    if locked {
        // SAFETY: as above; unlocking a lock this descriptor holds.
        unsafe { libc::flock(fd, libc::LOCK_UN) };
    }
}

/// Replaces the secrets in every string (object keys included) of `value`.
fn redact_strings(value: &mut Value, secrets: &[String]) {
    match value {
        Value::String(s) => *s = redact_text(s, secrets),
        Value::Array(items) => items.iter_mut().for_each(|v| redact_strings(v, secrets)),
        Value::Object(map) => {
            let old = std::mem::take(map);
            for (key, mut v) in old {
                redact_strings(&mut v, secrets);
                map.insert(redact_text(&key, secrets), v);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// A lifecycle event of one call, for a UI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The process is about to start.
    Start {
        /// Runtime-unique id of the call.
        call_id: u64,
        /// The tool.
        tool: String,
    },
    /// The call is still running (about once a second).
    Heartbeat {
        /// The call.
        call_id: u64,
        /// The tool.
        tool: String,
        /// Time since the start.
        elapsed: Duration,
    },
    /// The call ended (`status` as in [`crate::Status::as_str`], or `spawn_failed`).
    End {
        /// The call.
        call_id: u64,
        /// The tool.
        tool: String,
        /// How it ended.
        status: &'static str,
        /// Time since the start.
        duration: Duration,
    },
}
