//! [`Outcome`]: what a call that ran produced.

use serde_json::{Value, json};
use std::time::Duration;

/// How a call that ran ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exit code 0.
    Success,
    /// Non-zero exit code, or death by a signal (`code` is then `None`).
    Failed {
        /// The exit code.
        code: Option<i32>,
    },
    /// The deadline passed; the process group was killed.
    TimedOut,
    /// The cancel token fired; the process group was killed.
    Cancelled,
    /// A resource limit of the policy's confinement ended the call.
    LimitExceeded {
        /// Which one.
        limit: crate::confine::Limit,
    },
}

impl Status {
    /// `success`, `failed`, `timed_out`, `cancelled` or `limit_exceeded`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Failed { .. } => "failed",
            Status::TimedOut => "timed_out",
            Status::Cancelled => "cancelled",
            Status::LimitExceeded { .. } => "limit_exceeded",
        }
    }
}

/// The result of a call that ran.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// The exit code, when the process exited (not for a signal death).
    pub exit_code: Option<i32>,
    /// The signal that ended the process, if any.
    pub signal: Option<i32>,
    /// Retained stdout (head and tail; a marker names the dropped bytes).
    pub stdout: String,
    /// Retained stderr.
    pub stderr: String,
    /// Whether any output was dropped.
    pub truncated: bool,
    /// Bytes of stdout dropped from the middle.
    pub stdout_dropped: u64,
    /// Bytes of stderr dropped from the middle.
    pub stderr_dropped: u64,
    /// Output contained bytes that are not UTF-8; they were replaced by U+FFFD.
    pub non_utf8: bool,
    /// The pipes were still open when the drain bound expired (a child
    /// outside the process group holds them); output may be missing.
    pub output_incomplete: bool,
    /// Wall time from spawn to the end of the drain, plus the time of the
    /// call's `resolveCommand` steps.
    pub duration: Duration,
    /// For tools with the JSON-line contract (agentcli): the parsed stdout,
    /// or `{"error": "…"}` when the call failed or the output is not one line of JSON.
    pub result: Option<Value>,
    /// Protections the policy asked for that were not enforced on this
    /// machine (`degrade = warn`), each naming its missing mechanism.
    pub unenforced: Vec<String>,
}

impl Outcome {
    /// Whether the tool exited with code 0.
    pub fn is_success(&self) -> bool {
        self.status == Status::Success
    }

    /// What to give the model: the parsed JSON result for JSON-line tools;
    /// otherwise stdout on success and `{"error": "…"}` on failure.
    pub fn for_model(&self) -> Value {
        if let Some(result) = &self.result {
            return result.clone();
        }
        match self.status {
            Status::Success => Value::String(self.stdout.clone()),
            _ => json!({ "error": self.failure_text() }),
        }
    }

    /// A one-line reason for a failed call, as agentcli's runner words it:
    /// stderr, or `exit status N` when stderr is empty.
    pub fn failure_text(&self) -> String {
        match self.status {
            Status::Success => String::new(),
            Status::TimedOut => "tool timed out".to_string(),
            Status::Cancelled => "tool call cancelled".to_string(),
            Status::LimitExceeded { limit } => {
                format!("tool exceeded its {} limit", limit.as_str())
            }
            Status::Failed { code } => {
                let stderr = self.stderr.trim();
                if !stderr.is_empty() {
                    stderr.to_string()
                } else if let Some(code) = code {
                    format!("exit status {code}")
                } else {
                    format!("killed by signal {}", self.signal.unwrap_or(0))
                }
            }
        }
    }

    /// Applies the JSON-line contract: on success stdout must be one line of
    /// JSON; any failure becomes `{"error": "…"}`.
    pub(crate) fn apply_json_contract(&mut self) {
        let result = if self.status == Status::Success {
            let out = self.stdout.trim_end_matches(['\n', '\r']);
            if out.contains('\n') || self.truncated {
                json!({ "error": "tool output is not a single line of JSON" })
            } else {
                match serde_json::from_str::<Value>(out) {
                    Ok(v) => v,
                    Err(e) => json!({ "error": format!("tool output is not valid JSON: {e}") }),
                }
            }
        } else {
            json!({ "error": self.failure_text() })
        };
        self.result = Some(result);
    }

    /// The outcome as the one JSON object `toolsmith run` prints.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "status": self.status.as_str(),
            "exit_code": self.exit_code,
            "signal": self.signal,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "truncated": self.truncated,
            "stdout_dropped_bytes": self.stdout_dropped,
            "stderr_dropped_bytes": self.stderr_dropped,
            "non_utf8": self.non_utf8,
            "output_incomplete": self.output_incomplete,
            "duration_ms": u64::try_from(self.duration.as_millis()).unwrap_or(u64::MAX),
        });
        if let Some(obj) = v.as_object_mut() {
            if let Status::LimitExceeded { limit } = self.status {
                obj.insert("limit".into(), limit.as_str().into());
            }
            if !self.unenforced.is_empty() {
                obj.insert("unenforced".into(), self.unenforced.clone().into());
            }
            if let Some(result) = &self.result {
                obj.insert("result".into(), result.clone());
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(status: Status, stdout: &str, stderr: &str) -> Outcome {
        Outcome {
            status,
            exit_code: None,
            signal: None,
            stdout: stdout.into(),
            stderr: stderr.into(),
            truncated: false,
            stdout_dropped: 0,
            stderr_dropped: 0,
            non_utf8: false,
            output_incomplete: false,
            duration: Duration::ZERO,
            result: None,
            unenforced: Vec::new(),
        }
    }

    #[test]
    fn json_contract() {
        let mut o = outcome(Status::Success, "{\"a\":1}\n", "");
        o.apply_json_contract();
        assert_eq!(o.for_model(), json!({"a": 1}));
        let mut o = outcome(Status::Success, "{}\n{}\n", "");
        o.apply_json_contract();
        assert_eq!(
            o.for_model(),
            json!({"error": "tool output is not a single line of JSON"})
        );
        let mut o = outcome(Status::Failed { code: Some(3) }, "", "");
        o.apply_json_contract();
        assert_eq!(o.for_model(), json!({"error": "exit status 3"}));
        let mut o = outcome(
            Status::Failed { code: Some(1) },
            "",
            "{\"error\":\"bad\"}\n",
        );
        o.apply_json_contract();
        assert_eq!(o.for_model(), json!({"error": "{\"error\":\"bad\"}"}));
        let mut o = outcome(Status::TimedOut, "", "");
        o.apply_json_contract();
        assert_eq!(o.for_model(), json!({"error": "tool timed out"}));
    }

    #[test]
    fn text_tools_give_stdout() {
        assert_eq!(
            outcome(Status::Success, "hi\n", "").for_model(),
            json!("hi\n")
        );
        assert_eq!(
            outcome(Status::Failed { code: Some(2) }, "", "boom\n").for_model(),
            json!({"error": "boom"})
        );
    }
}
