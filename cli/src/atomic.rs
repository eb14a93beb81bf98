//! Writing a file atomically: the bytes go to a temporary file in the same
//! directory, which is then renamed over the target, so a reader (or a crash)
//! sees the old file or the new one, never half of it.

use crate::error::Error;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically, keeping the permissions of an
/// existing file.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let fail = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.toolsmith-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        if let Ok(meta) = std::fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(fail)
}
