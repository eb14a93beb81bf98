//! Program resolution: every program becomes an absolute, canonical path when
//! a manifest is loaded, and that exact path is executed.

use crate::refusal::Refusal;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Resolves a bare name (`git`) in the fixed `path` (never the parent's
/// `PATH`), or canonicalizes an absolute path.
pub(crate) fn resolve(program: &str, path: &str) -> Result<PathBuf, Refusal> {
    if program.is_empty() || program.contains('\0') {
        return Err(not_found(program, "empty or contains a NUL byte"));
    }
    if program.contains('/') {
        let p = Path::new(program);
        if !p.is_absolute() {
            return Err(Refusal::RelativeProgram(program.to_string()));
        }
        return canonical_executable(program, p);
    }
    for dir in path.split(':').filter(|d| d.starts_with('/')) {
        let candidate = Path::new(dir).join(program);
        if let Ok(found) = canonical_executable(program, &candidate) {
            return Ok(found);
        }
    }
    Err(not_found(program, &format!("not in {path}")))
}

/// Canonicalizes `program` and refuses it when it leaves `root` (both canonical,
/// compared component-wise, so `/allowed_evil` is not inside `/allowed`).
pub(crate) fn resolve_within(program: &Path, root: &Path) -> Result<PathBuf, Refusal> {
    let display = program.display().to_string();
    let root = root
        .canonicalize()
        .map_err(|e| not_found(&display, &format!("{}: {e}", root.display())))?;
    let resolved = program
        .canonicalize()
        .map_err(|e| not_found(&display, &e.to_string()))?;
    if !resolved.starts_with(&root) {
        return Err(Refusal::EscapingPath {
            path: program.to_path_buf(),
            resolved,
            root,
        });
    }
    canonical_executable(&display, &resolved)
}

fn canonical_executable(program: &str, p: &Path) -> Result<PathBuf, Refusal> {
    let resolved = p
        .canonicalize()
        .map_err(|e| not_found(program, &e.to_string()))?;
    let meta = resolved
        .metadata()
        .map_err(|e| not_found(program, &e.to_string()))?;
    if !meta.is_file() {
        return Err(not_found(program, "not a regular file"));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(not_found(program, "not executable"));
    }
    Ok(resolved)
}

fn not_found(program: &str, reason: &str) -> Refusal {
    Refusal::ProgramNotFound {
        program: program.to_string(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_names_use_the_fixed_path() {
        let sh = resolve("sh", crate::policy::FIXED_PATH).unwrap();
        assert!(sh.is_absolute());
        assert!(matches!(
            resolve("no-such-binary-xyz", "/usr/bin:/bin"),
            Err(Refusal::ProgramNotFound { .. })
        ));
        assert!(matches!(
            resolve("sh", "relative/dir"),
            Err(Refusal::ProgramNotFound { .. })
        ));
        assert!(matches!(
            resolve("./x", "/bin"),
            Err(Refusal::RelativeProgram(_))
        ));
    }
}
