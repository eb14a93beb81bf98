//! F17–F19: the tool sees a cleared environment, a fixed PATH, and only its
//! passthrough names. One test per binary: it changes the process environment.

mod common;

use common::*;
use std::collections::BTreeSet;
use toolsmith::manifest::model::Dialect;
use toolsmith::{Policy, Refusal, Runtime, Status};

#[test]
fn environment_is_built_from_empty() {
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("evil");
    script(&evil.join("true"), "echo HIJACKED");
    let old_path = std::env::var("PATH").unwrap_or_default();
    // SAFETY: the only test of this binary; no other thread reads the environment yet.
    unsafe {
        std::env::set_var("OPENAI_API_KEY", "sk-secret");
        std::env::set_var("ANTHROPIC_CREDS", "creds");
        std::env::set_var("TOOLSMITH_PASS", "visible");
        std::env::set_var("PATH", format!("{}:{old_path}", evil.display()));
    }
    let tools = vec![
        command_tool(
            "env",
            "/usr/bin/env",
            "/usr/bin/env".into(),
            None,
            vec!["TOOLSMITH_PASS".into(), "ABSENT_NAME".into()],
        ),
        command_tool(
            "preload",
            "/usr/bin/env",
            "/usr/bin/env".into(),
            None,
            vec!["LD_PRELOAD".into()],
        ),
        command_tool(
            "path",
            "/usr/bin/env",
            "/usr/bin/env".into(),
            None,
            vec!["PATH".into()],
        ),
    ];
    // Variables with the effect of denied ones (loaders, interpreters, git, OpenSSL).
    let newly_denied = [
        "PERLLIB",
        "PYTHONHOME",
        "GIT_SSH_COMMAND",
        "OPENSSL_CONF",
        "GLIBC_TUNABLES",
        "JAVA_TOOL_OPTIONS",
        "NODE_PATH",
        "RUBYLIB",
        "GIT_CONFIG_GLOBAL",
    ];
    let mut tools = tools;
    for name in newly_denied {
        // SAFETY: as above.
        unsafe { std::env::set_var(name, "/tmp/planted") };
        tools.push(command_tool(
            &format!("pass_{name}"),
            "/usr/bin/env",
            "/usr/bin/env".into(),
            None,
            vec![name.into()],
        ));
    }
    tools.push(command_tool(
        "lang",
        "/usr/bin/env",
        "/usr/bin/env".into(),
        None,
        vec!["LANG".into(), "LC_ALL".into()],
    ));
    let mut m = manifest(Dialect::Agentcli, dir.path(), tools, Default::default());
    let chai_true = chai(dir.path(), "t", "true", "x", vec![], serde_json::json!({}));
    m.tools.extend(chai_true.tools);
    m.allowlist = chai_true.allowlist;
    let mut rt = Runtime::new(Policy::default());
    rt.add_manifest(&m);

    let o = rt.dispatch("env", "{}").unwrap();
    let keys: BTreeSet<&str> = o
        .stdout
        .lines()
        .filter_map(|l| l.split('=').next())
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from(["HOME", "PATH", "TOOLSMITH_CALL_ID", "TOOLSMITH_PASS"]),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("PATH=/usr/local/bin:/usr/bin:/bin\n"));
    assert!(!o.stdout.contains("sk-secret") && !o.stdout.contains("creds"));

    assert_eq!(
        rt.dispatch("preload", "{}").unwrap_err(),
        Refusal::DeniedEnv("LD_PRELOAD".into())
    );
    assert_eq!(
        rt.dispatch("path", "{}").unwrap_err(),
        Refusal::DeniedEnv("PATH".into())
    );

    for name in newly_denied {
        assert_eq!(
            rt.dispatch(&format!("pass_{name}"), "{}").unwrap_err(),
            Refusal::DeniedEnv(name.into())
        );
    }
    // Load warnings: denied names, and names not known to be harmless; LANG/LC_ALL are not warned about.
    let warned = |name: &str| {
        rt.warnings()
            .iter()
            .any(|w| w.contains(&format!(" {name} ")))
    };
    for name in ["TOOLSMITH_PASS", "ABSENT_NAME", "LD_PRELOAD", "PERLLIB"] {
        assert!(warned(name), "{name}: {:?}", rt.warnings());
    }
    assert!(!warned("LANG") && !warned("LC_ALL"), "{:?}", rt.warnings());

    let o = rt.dispatch("t", "{}").unwrap();
    assert_eq!(o.status, Status::Success);
    assert!(!o.stdout.contains("HIJACKED"), "the planted `true` ran");
}
