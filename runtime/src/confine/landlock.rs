//! Landlock (Linux ≥ 5.13) through its three system calls.
//!
//! The ruleset is built in the parent (opening each root, adding a rule per
//! root); the child only calls `prctl(PR_SET_NO_NEW_PRIVS)` and
//! `landlock_restrict_self` on the prepared descriptor — two system calls,
//! no allocation, so they are sound between `fork` and `exec` in a
//! multithreaded parent. The `landlock` crate was not used: its derive
//! dependency (enumflags2) brings a second `syn` major into every user's
//! tree, and the kernel interface it wraps is three calls and two structs
//! (`include/uapi/linux/landlock.h`).

use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;

const CREATE_RULESET_VERSION: u32 = 1;
const RULE_PATH_BENEATH: libc::c_int = 1;

const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const READ_FILE: u64 = 1 << 2;
const READ_DIR: u64 = 1 << 3;
/// Rights that apply to a file (not only to a directory).
const FILE_RIGHTS: u64 = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV;
const REFER: u64 = 1 << 13;
const TRUNCATE: u64 = 1 << 14;
const IOCTL_DEV: u64 = 1 << 15;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI version of the running kernel (0: unavailable).
pub fn abi() -> u32 {
    // SAFETY: a NULL attribute with size 0 and the VERSION flag is the
    // documented version query; it creates nothing.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(v).unwrap_or(0)
}

/// Every filesystem right the kernel's ABI knows.
fn all_rights(abi: u32) -> u64 {
    let mut rights = (1u64 << 13) - 1;
    if abi >= 2 {
        rights |= REFER;
    }
    if abi >= 3 {
        rights |= TRUNCATE;
    }
    if abi >= 5 {
        rights |= IOCTL_DEV;
    }
    rights
}

/// A prepared ruleset: everything denied except reading (and executing)
/// below the read roots and everything below the write roots.
#[derive(Debug)]
pub struct Ruleset {
    fd: OwnedFd,
}

impl Ruleset {
    /// Builds the ruleset. Roots that do not exist are skipped (nothing
    /// below them can be reached anyway).
    pub fn new(read: &[&Path], write: &[&Path]) -> std::io::Result<Ruleset> {
        let abi = abi();
        if abi == 0 {
            return Err(std::io::Error::other("Landlock is not available"));
        }
        let handled = all_rights(abi);
        let attr = RulesetAttr {
            handled_access_fs: handled,
        };
        // SAFETY: attr is a valid landlock_ruleset_attr prefix of the given size.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                &attr as *const RulesetAttr,
                std::mem::size_of::<RulesetAttr>(),
                0u32,
            )
        };
        let fd = RawFd::try_from(fd)
            .ok()
            .filter(|fd| *fd >= 0)
            .ok_or_else(std::io::Error::last_os_error)?;
        // SAFETY: the kernel just returned this descriptor to us.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let ruleset = Ruleset { fd };
        let read_rights = EXECUTE | READ_FILE | READ_DIR;
        for root in read {
            ruleset.allow(root, read_rights & handled)?;
        }
        for root in write {
            ruleset.allow(root, handled)?;
        }
        Ok(ruleset)
    }

    fn allow(&self, root: &Path, rights: u64) -> std::io::Result<()> {
        let Ok(path) = CString::new(root.as_os_str().as_encoded_bytes()) else {
            return Ok(());
        };
        // SAFETY: a NUL-terminated path; O_PATH opens no file contents.
        let fd = unsafe { libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
        if fd < 0 {
            return Ok(());
        }
        // SAFETY: open returned a new descriptor that we own.
        let root_fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let rights = if root.is_dir() {
            rights
        } else {
            rights & FILE_RIGHTS
        };
        let attr = PathBeneathAttr {
            allowed_access: rights,
            parent_fd: root_fd.as_raw_fd(),
        };
        // SAFETY: attr is a valid landlock_path_beneath_attr; both fds are open.
        let r = unsafe {
            libc::syscall(
                libc::SYS_landlock_add_rule,
                self.fd.as_raw_fd(),
                RULE_PATH_BENEATH,
                &attr as *const PathBeneathAttr,
                0u32,
            )
        };
        if r != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }

    /// The descriptor to restrict with in the child.
    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

/// In the child: no new privileges, then enforce the ruleset on itself and
/// everything it runs. Only system calls.
///
/// # Safety
/// Call only between `fork` and `exec`; `fd` must be a prepared ruleset.
pub unsafe fn restrict_self(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: plain system calls with integer arguments.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
