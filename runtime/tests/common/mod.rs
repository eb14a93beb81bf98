//! Helpers for the process tests: build manifests in temporary directories.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use toolsmith::manifest::model::{
    ArgKind, ArgMapping, ChaiExecution, CommandExecution, Dialect, Execution, Manifest,
    ResolveCommand, Tool,
};

/// Writes an executable `#!/bin/sh` script.
pub fn script(path: &Path, body: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// An agentcli manifest in `dir` with one tool per `(name, script body)`,
/// each at `tools/bin/<name>`.
pub fn agentcli(dir: &Path, tools: &[(&str, &str)]) -> Manifest {
    let mut list = Vec::new();
    for (name, body) in tools {
        let program = dir.join("tools/bin").join(name);
        script(&program, body);
        list.push(command_tool(
            name,
            &format!("./tools/bin/{name}"),
            program,
            None,
            vec![],
        ));
    }
    manifest(Dialect::Agentcli, dir, list, BTreeMap::new())
}

pub fn command_tool(
    name: &str,
    command0: &str,
    program: PathBuf,
    timeout_sec: Option<u64>,
    env: Vec<String>,
) -> Tool {
    Tool {
        origin: Default::default(),
        name: name.into(),
        description: None,
        parameters: json!({"type": "object"}),
        execution: Execution::Command(CommandExecution {
            command: vec![command0.into()],
            program,
            timeout_sec,
            env_passthrough: env,
        }),
    }
}

pub fn manifest(
    dialect: Dialect,
    dir: &Path,
    tools: Vec<Tool>,
    allowlist: BTreeMap<String, Vec<String>>,
) -> Manifest {
    Manifest {
        unusable: Vec::new(),
        dialect,
        path: dir.join("tools.json"),
        inputs: vec![],
        tools,
        allowlist,
    }
}

pub fn positional(param: &str) -> ArgMapping {
    ArgMapping::new(param, ArgKind::Positional)
}

pub fn resolved(param: &str, resolver: ResolveCommand) -> ArgMapping {
    ArgMapping {
        resolve_command: Some(resolver),
        ..positional(param)
    }
}

/// A chai tool `binary subcommand <mappings…>` whose pair is allowlisted.
pub fn chai(
    dir: &Path,
    name: &str,
    binary: &str,
    sub: &str,
    args: Vec<ArgMapping>,
    schema: Value,
) -> Manifest {
    let tool = Tool {
        origin: Default::default(),
        name: name.into(),
        description: None,
        parameters: schema,
        execution: Execution::Chai(vec![ChaiExecution {
            binary: binary.into(),
            subcommand: sub.into(),
            args,
            skill_dir: dir.to_path_buf(),
            ..ChaiExecution::default()
        }]),
    };
    let allow = BTreeMap::from([(binary.to_string(), vec![sub.to_string()])]);
    manifest(Dialect::ChaiLegacy, dir, vec![tool], allow)
}

/// Whether a process is gone (absent, or a zombie waiting for its reaper), waiting up to 10 s.
pub fn gone(pid: i32) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat) => {
                let state = stat
                    .rsplit(')')
                    .next()
                    .and_then(|r| r.split_whitespace().next());
                if matches!(state, Some("Z") | Some("X")) {
                    return true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Reads a pid written by a tool script, waiting up to 10 s for it to appear.
pub fn read_pid(path: &Path) -> i32 {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no pid in {}", path.display());
}

/// Kills a process we started (cleanup of escaped grandchildren).
pub fn kill(pid: i32) {
    let _ = std::process::Command::new("/bin/kill")
        .args(["-9", &pid.to_string()])
        .status();
}

pub fn has(program: &str) -> bool {
    ["/usr/bin", "/bin", "/usr/local/bin"]
        .iter()
        .any(|d| Path::new(d).join(program).is_file())
}
