//! No network: a seccomp filter, compiled in the parent with `seccompiler`,
//! makes `socket` fail with `EACCES` for the IPv4, IPv6 and packet families
//! (local `AF_UNIX` sockets keep working), and refuses `io_uring_setup`
//! (io_uring's socket operations bypass seccomp). The child installs the
//! prepared program with one `prctl` call.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};
use std::collections::BTreeMap;

/// Whether this kernel supports seccomp filters.
pub fn available() -> bool {
    // SAFETY: PR_GET_SECCOMP reads the calling thread's mode; no arguments.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}

/// The compiled no-network filter.
pub fn no_network() -> Result<BpfProgram, String> {
    let families = [libc::AF_INET, libc::AF_INET6, libc::AF_PACKET];
    let mut rules = Vec::new();
    for family in families {
        let family = u64::try_from(family).map_err(|e| e.to_string())?;
        let condition = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, family)
            .map_err(|e| e.to_string())?;
        rules.push(SeccompRule::new(vec![condition]).map_err(|e| e.to_string())?);
    }
    let mut map = BTreeMap::new();
    map.insert(libc::SYS_socket, rules);
    map.insert(libc::SYS_io_uring_setup, Vec::new());
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    let filter = SeccompFilter::new(
        map,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(|e| e.to_string())?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())
}

/// In the child: install `program` (no new privileges first, as seccomp
/// requires without `CAP_SYS_ADMIN`). Only system calls.
///
/// # Safety
/// Call only between `fork` and `exec`.
pub unsafe fn install(program: &BpfProgram) -> std::io::Result<()> {
    let Ok(len) = u16::try_from(program.len()) else {
        return Err(std::io::Error::from_raw_os_error(libc::E2BIG));
    };
    let fprog = libc::sock_fprog {
        len,
        filter: program.as_ptr().cast::<libc::sock_filter>().cast_mut(),
    };
    // SAFETY: fprog points at a valid, live BPF program of `len` instructions.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &fprog as *const libc::sock_fprog,
        ) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
