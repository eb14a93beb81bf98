//! F6: a flood of hundreds of megabytes leaves the runtime's memory bounded.
//! Alone in its binary so that the peak resident size measures this test only.

mod common;

use toolsmith::{Policy, Runtime, Status};

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

#[test]
fn flood_keeps_memory_bounded() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("no /proc; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let m = common::agentcli(dir.path(), &[("flood", "head -c 400000000 /dev/zero")]);
    let mut rt = Runtime::new(Policy::default());
    rt.add_manifest(&m);
    let before = peak_kib();
    let o = rt.dispatch("flood", "{}").unwrap();
    let after = peak_kib();
    assert_eq!(o.status, Status::Success);
    assert_eq!(o.stdout_dropped, 400_000_000 - 1024 * 1024);
    assert!(
        after.saturating_sub(before) < 64 * 1024,
        "peak grew by {} KiB",
        after - before
    );
}
