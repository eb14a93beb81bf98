//! [`Plan`]: every decision made before a spawn, as data. [`Runtime::plan`]
//! makes one, [`Runtime::run_plan`] runs exactly it; `dispatch`, `run` and
//! `run_call` are the two steps together, so what a dry run shows is what a
//! call runs.
//!
//! [`Runtime::plan`]: crate::Runtime::plan
//! [`Runtime::run_plan`]: crate::Runtime::run_plan

use crate::tool::chai::TempFile;
use serde_json::{Map, Value, json};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;
use toolsmith_model::model::{HintCondition, SideRead};

/// What a call will run.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The tool's wire name.
    pub tool: String,
    /// The program executed (canonical), or `None` when it cannot be found
    /// here (then [`Plan::problems`] says why and `run_plan` refuses it).
    pub program: Option<PathBuf>,
    /// The whole vector given to exec: `binaryWrapper` tokens, the program as
    /// the manifest names it, its subcommand tokens and its arguments. A temp
    /// file stands as `$TEMPFILE{param}` until the plan runs.
    pub argv: Vec<OsString>,
    /// Bytes written to the program's stdin.
    pub stdin: Option<Vec<u8>>,
    /// The working directory (absolute), or `None` for the runtime's own.
    pub cwd: Option<PathBuf>,
    /// The environment after scrubbing; values of redacted names read `<redacted>`.
    pub env: Vec<(String, String)>,
    /// Temp files written (private, mode 0600) when the plan runs.
    pub tempfiles: Vec<TempFile>,
    /// The deadline.
    pub timeout: Duration,
    /// Bytes of stdout and of stderr kept.
    pub max_output: usize,
    /// What happens to the output.
    pub output: OutputPlan,
    /// What keeps the plan from running here (a program not found).
    pub problems: Vec<String>,
    pub(crate) hidden: Hidden,
}

/// What a plan keeps for running but does not show.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Hidden {
    /// The real environment values.
    pub env: Vec<(String, OsString)>,
    /// The program file's identity when planned (device, inode, size, mtime).
    pub identity: Option<(u64, u64, u64, i64)>,
    /// The skill directory (for `postProcess` scripts).
    pub skill_dir: Option<PathBuf>,
    /// agentcli: stdout is one line of JSON.
    pub json_contract: bool,
    /// chai v0.5: the output pipeline applies (legacy returns stdout only).
    pub pipeline: bool,
    /// `writePath` targets whose missing parent directories are made before the spawn.
    pub write_paths: Vec<PathBuf>,
    /// Time spent preparing (resolvers), which counts against the deadline.
    pub resolving: std::time::Duration,
    /// The call's own read roots under confinement (the skill directory;
    /// the sandbox roots when the tool has a path parameter).
    pub read_roots: Vec<PathBuf>,
    /// The call's own write roots under confinement (the sandbox roots when
    /// the tool has a `writePath` parameter).
    pub write_roots: Vec<PathBuf>,
}

/// The output pipeline of a call (chai v0.5: exit status, `postProcess`,
/// `hintConditions`, truncation, `sideRead`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OutputPlan {
    /// Exit codes besides 0 that count as success.
    pub success_exit_codes: Vec<i32>,
    /// Truncate the result to this many lines.
    pub max_output_lines: Option<usize>,
    /// The truncation notice template.
    pub truncation_hint: Option<String>,
    /// Hints appended when their conditions hold.
    pub hint_conditions: Vec<HintCondition>,
    /// The post-processor, when there is one.
    pub post_process: Option<PostProcessPlan>,
    /// A file appended to the result.
    pub side_read: Option<SideRead>,
    /// The call's arguments as the pipeline reads them (canonical paths,
    /// `absentDefault`s filled in).
    pub arguments: Map<String, Value>,
}

/// A planned post-processor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostProcessPlan {
    /// Its program (canonical), or `None` when it cannot run (the result is then kept as is).
    pub program: Option<PathBuf>,
    /// Its argv after the program, `$param` arguments substituted.
    pub argv: Vec<String>,
    /// An empty output replaces the result.
    pub empty_is_result: bool,
}

fn lossy(s: &OsString) -> String {
    s.to_string_lossy().into_owned()
}

impl Plan {
    /// The plan as `toolsmith run --dry-run` prints it: `status`, `tool`,
    /// `program`, `argv`, `stdin`, `cwd`, `env`, `tempfiles`, `timeout_ms`,
    /// `output`, and `problems` when there are any.
    pub fn to_json(&self) -> Value {
        let output = &self.output;
        let mut out = json!({
            "status": "planned",
            "tool": self.tool,
            "program": self.program.as_ref().map(|p| p.to_string_lossy().into_owned()),
            "argv": self.argv.iter().map(lossy).collect::<Vec<_>>(),
            "stdin": self.stdin.as_ref().map(|s| String::from_utf8_lossy(s).into_owned()),
            "cwd": self.cwd.as_ref().map(|p| p.to_string_lossy().into_owned()),
            "env": self.env.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect::<Map<_, _>>(),
            "tempfiles": self.tempfiles.iter().map(|t| json!({
                "param": t.param,
                "placeholder": t.placeholder(),
                "content": String::from_utf8_lossy(&t.content),
            })).collect::<Vec<_>>(),
            "timeout_ms": u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX),
            "output": {
                "max_bytes": self.max_output,
                "success_exit_codes": output.success_exit_codes,
                "max_output_lines": output.max_output_lines,
                "truncation_hint": output.truncation_hint,
                "hint_conditions": serde_json::to_value(&output.hint_conditions).unwrap_or(Value::Null),
                "post_process": output.post_process.as_ref().map(|p| json!({
                    "program": p.program.as_ref().map(|x| x.to_string_lossy().into_owned()),
                    "argv": p.argv,
                    "empty_is_result": p.empty_is_result,
                })),
                "side_read": serde_json::to_value(&output.side_read).unwrap_or(Value::Null),
                "json_line": self.hidden.json_contract,
            },
        });
        if !self.problems.is_empty()
            && let Some(o) = out.as_object_mut()
        {
            o.insert("problems".into(), json!(self.problems));
        }
        out
    }

    /// The plan for a person: the command line shell-quoted for reading
    /// (never run through a shell), stdin and temp-file previews, cwd, timeout.
    pub fn to_human(&self) -> String {
        let mut s = String::new();
        let line: Vec<String> = self.argv.iter().map(|a| shell_quote(&lossy(a))).collect();
        s.push_str(&format!("tool:     {}\n", self.tool));
        s.push_str(&format!("command:  {}\n", line.join(" ")));
        match &self.program {
            Some(p) => s.push_str(&format!("program:  {}\n", p.display())),
            None => s.push_str("program:  (not found)\n"),
        }
        if let Some(cwd) = &self.cwd {
            s.push_str(&format!("cwd:      {}\n", cwd.display()));
        }
        s.push_str(&format!("timeout:  {} ms\n", self.timeout.as_millis()));
        if let Some(stdin) = &self.stdin {
            s.push_str(&format!("stdin:    {}\n", preview(stdin)));
        }
        for t in &self.tempfiles {
            s.push_str(&format!(
                "tempfile: {} = {}\n",
                t.placeholder(),
                preview(&t.content)
            ));
        }
        if let Some(p) = &self.output.post_process {
            let prog = p
                .program
                .as_ref()
                .map_or("(not found)".into(), |x| x.display().to_string());
            s.push_str(&format!("post:     {} {}\n", prog, p.argv.join(" ")));
        }
        for problem in &self.problems {
            s.push_str(&format!("problem:  {problem}\n"));
        }
        s
    }
}

/// At most 200 characters of `bytes`, quoted.
fn preview(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let short: String = text.chars().take(200).collect();
    let more = if short.len() < text.len() { "…" } else { "" };
    format!("{short:?}{more}")
}

/// Single-quotes `s` for reading when it has characters a shell would treat
/// specially.
///
/// ```
/// assert_eq!(toolsmith::plan::shell_quote("a b"), "'a b'");
/// assert_eq!(toolsmith::plan::shell_quote("it's"), r"'it'\''s'");
/// assert_eq!(toolsmith::plan::shell_quote("--flag=x"), "--flag=x");
/// assert_eq!(toolsmith::plan::shell_quote(""), "''");
/// ```
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
