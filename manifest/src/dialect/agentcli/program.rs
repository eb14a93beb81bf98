//! goagent's `command[0]` algorithm (`LoadManifest`,
//! `internal/tools/manifest.go`): where a tool's program may live, decided
//! lexically from the string alone.

/// The verdict on a `command[0]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// Absolute (starts with `/`): accepted unchecked by goagent.
    Absolute,
    /// Relative and inside `./tools/bin/`; `norm` is the cleaned form (`./tools/bin/…`).
    Ok {
        /// The cleaned path, starting with `./tools/bin/`.
        norm: String,
    },
    /// Rule 5: the cleaned form starts with `../` or is `..`.
    Parent,
    /// Rule 6: written under `./tools/bin` but cleans to somewhere else.
    EscapesBin {
        /// The cleaned path.
        norm: String,
    },
    /// Rule 7: any other relative path not under `./tools/bin/`.
    NotInBin {
        /// The cleaned path.
        norm: String,
    },
}

/// Classifies `command[0]` as goagent's `LoadManifest` does:
/// `\` becomes `/`, the path is cleaned lexically, `tools/…` gets a `./` prefix.
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::program::{check, Program};
/// assert_eq!(check("tools/bin/x"), Program::Ok { norm: "./tools/bin/x".into() });
/// assert_eq!(check("./tools/bin/../hack"), Program::EscapesBin { norm: "./tools/hack".into() });
/// ```
pub fn check(cmd0: &str) -> Program {
    if cmd0.starts_with('/') {
        return Program::Absolute;
    }
    let raw = cmd0.replace('\\', "/");
    let mut norm = clean(&raw);
    if norm.starts_with("tools/") || norm == "tools" {
        norm = format!("./{norm}");
    }
    if norm.starts_with("../") || norm == ".." {
        Program::Parent
    } else if raw.starts_with("./tools/bin/") || raw == "./tools/bin" {
        if norm.starts_with("./tools/bin/") {
            Program::Ok { norm }
        } else {
            Program::EscapesBin { norm }
        }
    } else if norm.starts_with("./tools/bin/") {
        Program::Ok { norm }
    } else {
        Program::NotInBin { norm }
    }
}

/// Go's `path.Clean`: the shortest equivalent path, by purely lexical processing
/// (collapse `//` and `.`, resolve `..` against a preceding element, drop `..`
/// at the root; the empty path is `.`).
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::program::clean;
/// assert_eq!(clean("./tools//bin/./a/../b"), "tools/bin/b");
/// assert_eq!(clean("../../x"), "../../x");
/// assert_eq!(clean("/../x/"), "/x");
/// assert_eq!(clean(""), ".");
/// ```
pub fn clean(path: &str) -> String {
    if path.is_empty() {
        return ".".to_string();
    }
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    // Number of leading `..` elements that cannot be resolved (relative paths only).
    let mut dotdot = 0;
    for element in path.split('/') {
        match element {
            "" | "." => {}
            ".." => {
                if parts.len() > dotdot {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                    dotdot += 1;
                }
            }
            e => parts.push(e),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases of goagent's `internal/tools/manifest_test.go`, and the
    /// algorithm's edges (`""`, `./tools/bin` itself, Windows separators).
    #[test]
    fn worked_cases_of_the_reference() {
        assert_eq!(check("/usr/bin/env"), Program::Absolute);
        for ok in [
            "./tools/bin/fs_read_file",
            "tools/bin/x",
            "./tools/bin/a/b",
            ".\\tools\\bin\\fs_read_file",
        ] {
            assert!(matches!(check(ok), Program::Ok { .. }), "{ok}");
        }
        assert_eq!(
            check(".\\tools\\bin\\fs_read_file"),
            Program::Ok {
                norm: "./tools/bin/fs_read_file".into()
            }
        );
        for rule7 in ["echo", "./tools/get_time", "./bin/timecli", ""] {
            assert!(
                matches!(check(rule7), Program::NotInBin { .. }),
                "{rule7:?}"
            );
        }
        assert_eq!(check("../tools/bin/get_time"), Program::Parent);
        assert_eq!(
            check("./tools/bin/../hack"),
            Program::EscapesBin {
                norm: "./tools/hack".into()
            }
        );
        assert_eq!(
            check(".\\tools\\bin\\..\\hack"),
            Program::EscapesBin {
                norm: "./tools/hack".into()
            }
        );
        assert_eq!(
            check("./tools/bin"),
            Program::EscapesBin {
                norm: "./tools/bin".into()
            }
        );
    }

    #[test]
    fn more_cleaning_cases() {
        assert_eq!(check(".."), Program::Parent);
        assert_eq!(check("./tools/bin/a/../../../../x"), Program::Parent);
        assert_eq!(
            check("./tools/bin/a/../../../x"),
            Program::EscapesBin { norm: "x".into() }
        );
        assert_eq!(
            check("tools/bin/../../tools/bin/x"),
            Program::Ok {
                norm: "./tools/bin/x".into()
            }
        );
        // `\` that becomes a leading `/` is still a relative path on Unix.
        assert!(matches!(check("\\tools\\bin\\x"), Program::NotInBin { .. }));
        assert_eq!(clean("a/b/../../.."), "..");
        assert_eq!(clean("/"), "/");
        assert_eq!(clean("//a//b//"), "/a/b");
        assert_eq!(clean("a/./b/."), "a/b");
    }
}
