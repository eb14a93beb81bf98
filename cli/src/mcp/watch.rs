//! `--watch`: the files a tool set was loaded from are polled (modification
//! time, size, inode; no watcher crate); on a change the paths are loaded
//! again, and when the `tools/list` result differs every session is sent
//! `notifications/tools/list_changed`. A reload that fails keeps the tools
//! in force and says why on stderr.

use super::log;
use super::server::Shared;
use super::toolset::{Config, ToolSet};
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// How often the files are looked at.
pub const INTERVAL: Duration = Duration::from_millis(500);

/// What a file looked like: `None` when it is missing.
type Stamp = Option<(SystemTime, u64, u64)>;

/// The stamps of `files`, in order.
fn stamps(files: &[PathBuf]) -> Vec<Stamp> {
    files
        .iter()
        .map(|f| {
            std::fs::metadata(f).ok().map(|m| {
                (
                    m.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                    m.len(),
                    m.ino(),
                )
            })
        })
        .collect()
}

/// Polls until the process ends.
pub async fn run(shared: Arc<Shared>, paths: Vec<PathBuf>, config: Config) {
    let mut files = shared.tools().watched.clone();
    let mut seen = stamps(&files);
    loop {
        tokio::time::sleep(INTERVAL).await;
        let now = {
            let files = files.clone();
            match tokio::task::spawn_blocking(move || stamps(&files)).await {
                Ok(now) => now,
                Err(_) => continue,
            }
        };
        if now == seen {
            continue;
        }
        let (p, c) = (paths.clone(), config.clone());
        let loaded = match tokio::task::spawn_blocking(move || ToolSet::load(&p, &c)).await {
            Ok(loaded) => loaded,
            Err(e) => Err(format!("the reload did not finish: {e}")),
        };
        match loaded {
            Ok(loaded) => {
                for w in &loaded.warnings {
                    log(format!("warning: {w}"));
                }
                if loaded.set.watched != files {
                    files = loaded.set.watched.clone();
                    seen = stamps(&files);
                } else {
                    // Stamps from before the load: a change during it is seen next time.
                    seen = now;
                }
                let count = loaded.set.listed.len();
                if shared.replace_tools(loaded.set) {
                    log(format!(
                        "toolsmith: tools reloaded ({count} tools); notifying the clients"
                    ));
                    shared.notify_list_changed().await;
                }
            }
            Err(e) => {
                log(format!(
                    "toolsmith: reload failed, the previous tools stay in force: {e}"
                ));
                seen = now;
            }
        }
    }
}
