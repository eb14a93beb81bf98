//! The path sandbox of chai `readPath` / `writePath` / `workingdir`
//! parameters (as chai v0.5 at fb29f89, `crates/lib/src/tools/generic/sandbox.rs`
//! and `exec.rs`): a value is resolved against the first root,
//! canonicalized through symlinks, and must stay under one of the roots.
//!
//! Stricter than chai: `~`, `file://` and `.git` components are refused in
//! path parameters too, an empty write path is refused (chai skips the check
//! and passes `''`), and a path that cannot be resolved is refused instead of
//! being created.

use std::path::{Component, Path, PathBuf};

/// Read and write roots; the first is where relative paths resolve and the
/// default working directory.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sandbox {
    roots: Vec<PathBuf>,
}

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PathError {
    /// The message (chai's wording where it has one).
    pub message: String,
}

fn refuse(message: String) -> PathError {
    PathError { message }
}

impl Sandbox {
    /// A sandbox of `roots`, each canonicalized (a root that does not exist is an error).
    pub fn new<I, P>(roots: I) -> Result<Self, PathError>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let roots = roots
            .into_iter()
            .map(|r| {
                let r = r.as_ref();
                r.canonicalize().map_err(|e| {
                    refuse(format!("sandbox root {} cannot be used: {e}", r.display()))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Sandbox { roots })
    }

    /// The roots, canonical.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The roots of `self`, then those of `other` that `self` lacks
    /// (see [`Policy::merge`](crate::Policy::merge)).
    pub fn union(&self, other: &Sandbox) -> Sandbox {
        let mut roots = self.roots.clone();
        for root in &other.roots {
            if !roots.contains(root) {
                roots.push(root.clone());
            }
        }
        Sandbox { roots }
    }

    /// True when there is no root.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The root that contains `path`, if any.
    pub fn root_of(&self, path: &Path) -> Option<&Path> {
        self.roots
            .iter()
            .find(|r| path.starts_with(r))
            .map(PathBuf::as_path)
    }

    /// Resolves a parameter's value to a canonical path inside a root.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("ts-sbx-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(dir.join("sub")).unwrap();
    /// use toolsmith::sandbox::Sandbox;
    /// let sandbox = Sandbox::new([&dir]).unwrap();
    /// let root = sandbox.roots()[0].clone();
    /// assert_eq!(sandbox.resolve("p", "sub/new.txt", true).unwrap(), root.join("sub/new.txt"));
    /// assert!(sandbox.resolve("p", "../outside", false).is_err());
    /// assert!(sandbox.resolve("p", "/etc/passwd", false).is_err());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn resolve(&self, param: &str, value: &str, write: bool) -> Result<PathBuf, PathError> {
        let what = if write { "write" } else { "read" };
        let Some(root) = self.roots.first() else {
            return Err(refuse(format!(
                "parameter '{param}' is a {what} path but no sandbox is configured (give one with --sandbox DIR)"
            )));
        };
        if value.is_empty() && write {
            return Err(refuse(format!("parameter '{param}': empty {what} path")));
        }
        if value.contains('\0') {
            return Err(refuse(format!(
                "parameter '{param}': path contains a NUL byte"
            )));
        }
        if value.starts_with('~') {
            return Err(refuse(format!(
                "parameter '{param}' received a home-relative path '{value}'; paths are relative to the sandbox root"
            )));
        }
        if value.starts_with("file://") {
            return Err(refuse(format!(
                "parameter '{param}' received a file:// URL '{value}'; give a path relative to the sandbox root"
            )));
        }
        let joined = if value.is_empty() {
            root.clone()
        } else {
            root.join(value)
        };
        let canonical = canonicalize_lenient(&joined)
            .ok_or_else(|| refuse(format!("cannot resolve {what} path: {value}")))?;
        if canonical.components().any(|c| c.as_os_str() == ".git") {
            return Err(refuse(format!(
                "{what} path targets a .git directory: {}",
                canonical.display()
            )));
        }
        if self.root_of(&canonical).is_none() {
            return Err(refuse(format!(
                "{what} path outside sandbox: {}",
                canonical.display()
            )));
        }
        Ok(canonical)
    }
}

/// The canonical form of `path`: its nearest existing ancestor canonicalized
/// (symlinks resolved), the rest appended. `..` in the part that does not
/// exist is resolved lexically only when it stays inside that part; otherwise `None`.
fn canonicalize_lenient(path: &Path) -> Option<PathBuf> {
    if let Ok(c) = path.canonicalize() {
        return Some(c);
    }
    let mut existing = path.to_path_buf();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    loop {
        // Present but not canonical: a dangling or looping symlink (a
        // writer would create its target, outside the sandbox).
        if existing.symlink_metadata().is_ok() {
            return None;
        }
        let name = existing.file_name()?.to_os_string();
        rest.push(name);
        if !existing.pop() {
            return None;
        }
        if let Ok(base) = existing.canonicalize() {
            let mut out = base;
            for part in rest.iter().rev() {
                match Path::new(part).components().next() {
                    Some(Component::ParentDir) => return None,
                    Some(Component::CurDir) => {}
                    _ => out.push(part),
                }
            }
            return Some(out);
        }
    }
}

/// chai's path-like refusal (V8) for a value of a parameter that is not a
/// path parameter: absolute paths, `~`, `file://`, `.git` and `..`
/// components. The messages are chai's.
pub fn path_like(param: &str, value: &str) -> Result<(), PathError> {
    let tail = "but is not annotated as a path parameter; add readPath, writePath, or unsafePath";
    if value.starts_with('/') && !value.starts_with("//") {
        return Err(refuse(format!(
            "parameter '{param}' received an absolute path '{value}' {tail}"
        )));
    }
    if value.starts_with('~') {
        return Err(refuse(format!(
            "parameter '{param}' received a home-relative path '{value}' {tail}"
        )));
    }
    if value.starts_with("file://") {
        return Err(refuse(format!(
            "parameter '{param}' received a file:// URL '{value}' {tail}"
        )));
    }
    let mut parts = value.split(['/', '\\']);
    if parts.clone().any(|p| p == ".git") {
        return Err(refuse(format!(
            "parameter '{param}' targets a .git directory '{value}' but is not annotated as a path parameter; git state must only be modified through git skill tools"
        )));
    }
    if parts.any(|p| p == "..") {
        return Err(refuse(format!(
            "parameter '{param}' received a path with '..' traversal '{value}' {tail}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlink_out_of_the_root_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        std::os::unix::fs::symlink("/etc", root.join("link")).unwrap();
        let s = Sandbox::new([&root]).unwrap();
        let e = s.resolve("p", "link/passwd", false).unwrap_err();
        assert!(
            e.message.starts_with("read path outside sandbox: /etc"),
            "{e}"
        );
        assert!(s.resolve("p", "missing/../../x", true).is_err());
        assert!(s.resolve("p", "", true).is_err());
        assert_eq!(s.resolve("p", "", false).unwrap(), s.roots()[0]);
        assert!(s.resolve("p", ".git/config", false).is_err());
    }

    #[test]
    fn path_like_values_are_refused() {
        assert!(path_like("q", "/etc/passwd").is_err());
        assert!(path_like("q", "a/../../b").is_err());
        assert!(path_like("q", "x/.git/hooks").is_err());
        assert!(path_like("q", "~/x").is_err());
        assert!(path_like("q", "//server").is_ok());
        assert!(path_like("q", "hello world").is_ok());
    }
}
