//! Context modules: the system prompt of an agent directory.

use std::path::Path;

/// Composes the system prompt of an agent directory: `soul.md`, then every
/// `context/*.md` in name order, each preceded by a line `---`. A missing or
/// empty `context/` directory is fine; a missing `soul.md` is an error.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("soul.md"), "You are terse.\n").unwrap();
/// std::fs::create_dir(dir.path().join("context")).unwrap();
/// std::fs::write(dir.path().join("context/b.md"), "B").unwrap();
/// std::fs::write(dir.path().join("context/a.md"), "A\n").unwrap();
/// let text = toolsmith::compose_system(dir.path()).unwrap();
/// assert_eq!(text, "You are terse.\n---\nA\n---\nB\n");
/// ```
pub fn compose_system(agent_dir: &Path) -> std::io::Result<String> {
    let mut out = std::fs::read_to_string(agent_dir.join("soul.md"))?;
    let mut modules = Vec::new();
    match std::fs::read_dir(agent_dir.join("context")) {
        Ok(entries) => {
            for entry in entries {
                let path = entry?.path();
                if path.extension().is_some_and(|e| e == "md") && path.is_file() {
                    modules.push(path);
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    modules.sort();
    for path in modules {
        push_line_break(&mut out);
        out.push_str("---\n");
        out.push_str(&std::fs::read_to_string(&path)?);
    }
    push_line_break(&mut out);
    Ok(out)
}

fn push_line_break(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}
