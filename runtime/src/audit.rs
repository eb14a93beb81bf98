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
    out: Mutex<Box<dyn Write + Send>>,
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
            out: Mutex::new(Box::new(out)),
        }
    }

    /// An audit sink appending to the file at `path` (created if absent).
    pub fn append_to(path: &Path) -> std::io::Result<Self> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(Audit::new(file))
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
        let line = Value::Object(obj).to_string();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
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
