//! Environment variables that a tool may never receive, shared by the
//! runtime (which refuses them) and the linter (which reports manifests that
//! pass them through): one list, so that what `toolsmith lint` calls denied
//! is exactly what the runtime refuses.

/// Names that are never passed to a tool (compared case-insensitively):
/// each changes which code a program loads or runs, or where it reads its
/// configuration, as documented by the program itself.
const DENIED_ENV: &[&str] = &[
    // Finding programs and configuration (HOME is private per call).
    "PATH",
    "HOME",
    "CDPATH",
    "XDG_CONFIG_HOME",
    "XDG_CONFIG_DIRS",
    // POSIX shells, bash, zsh, ksh (bash(1) "INVOCATION", zsh "STARTUP FILES").
    "IFS",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "GLOBIGNORE",
    "BASH_XTRACEFD",
    "ZDOTDIR",
    "FPATH",
    "SHELL",
    // Programs other programs start (editors, pagers, askpass helpers).
    "EDITOR",
    "VISUAL",
    "PAGER",
    "MANPAGER",
    "BROWSER",
    "LESSOPEN",
    "LESSCLOSE",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "VIMINIT",
    "EXINIT",
    // glibc: the variables ld.so drops for setuid programs (UNSECURE_ENVVARS).
    "GCONV_PATH",
    "GETCONF_DIR",
    "GLIBC_TUNABLES",
    "HOSTALIASES",
    "LOCALDOMAIN",
    "LOCPATH",
    "NIS_PATH",
    "NLSPATH",
    "RESOLV_HOST_CONF",
    "RES_OPTIONS",
    "TZDIR",
    // Perl (perlrun "ENVIRONMENT").
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "PERL5DB",
    "PERLDB_OPTS",
    // Python (python(1) "ENVIRONMENT VARIABLES").
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONUSERBASE",
    "PYTHONPLATLIBDIR",
    "PYTHONBREAKPOINT",
    "PYTHONINSPECT",
    "PYTHONWARNINGS",
    "PYTHONPYCACHEPREFIX",
    "PYTHONEXECUTABLE",
    // Ruby (ruby(1) "ENVIRONMENT"), RubyGems, Bundler.
    "RUBYOPT",
    "RUBYLIB",
    "RUBYPATH",
    "RUBYSHELL",
    "GEM_HOME",
    "GEM_PATH",
    "BUNDLE_GEMFILE",
    // Node.js (node(1) "ENVIRONMENT").
    "NODE_OPTIONS",
    "NODE_PATH",
    "NODE_REPL_EXTERNAL_MODULE",
    // Java (JVM "JAVA_TOOL_OPTIONS", java launcher).
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "CLASSPATH",
    // Other interpreters and runtimes.
    "LUA_INIT",
    "LUA_PATH",
    "LUA_CPATH",
    "PHPRC",
    "PHP_INI_SCAN_DIR",
    "TCLLIBPATH",
    "R_PROFILE",
    "R_PROFILE_USER",
    "R_ENVIRON",
    "R_ENVIRON_USER",
    "DOTNET_STARTUP_HOOKS",
    "GTK_MODULES",
    "GTK_PATH",
    "GIO_EXTRA_MODULES",
    "QT_PLUGIN_PATH",
    // Git (git(1) "ENVIRONMENT VARIABLES").
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "GIT_EXEC_PATH",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "GIT_PROXY_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_TEMPLATE_DIR",
    "GIT_DIR",
    "GIT_COMMON_DIR",
    // OpenSSL (config(5): engines and providers are loaded code).
    "OPENSSL_CONF",
    "OPENSSL_ENGINES",
    "OPENSSL_MODULES",
    "SSLKEYLOGFILE",
];

/// Denied name prefixes: the dynamic loaders (`LD_*`, `DYLD_*`), glibc
/// malloc tuning (`MALLOC_*`), exported bash functions, git configuration
/// given in the environment (`GIT_CONFIG`, `GIT_CONFIG_GLOBAL`,
/// `GIT_CONFIG_KEY_0`, `GIT_CONFIG_PARAMETERS`, …), npm configuration
/// (`npm_config_script_shell`, `npm_config_node_options`, …) and the .NET
/// profiler hooks.
const DENIED_ENV_PREFIXES: &[&str] = &[
    "LD_",
    "DYLD_",
    "MALLOC_",
    "BASH_FUNC_",
    "GIT_CONFIG",
    "NPM_CONFIG_",
    "CORECLR_",
    "COR_PROFILER",
];

/// Whether an environment variable name may never be passed through, even
/// when a manifest lists it (or set with [`Policy::set_env`]): names that
/// change how programs load, find other programs, read their configuration
/// or run shell code. See [`is_known_harmless_env`] for the other end.
pub fn is_denied_env(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    DENIED_ENV.contains(&upper.as_str()) || DENIED_ENV_PREFIXES.iter().any(|p| upper.starts_with(p))
}

/// Whether a passthrough name is known not to change what a program runs
/// (`LANG`, `LC_*`, `TZ`, `TERM`, …). A passed-through name that is neither
/// this nor denied is allowed, with a load warning (`Runtime::warnings` in the `toolsmith` crate):
/// the denylist cannot know every program's variables.
pub fn is_known_harmless_env(name: &str) -> bool {
    const HARMLESS: &[&str] = &[
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "COLORTERM",
        "NO_COLOR",
        "COLUMNS",
        "LINES",
        "USER",
        "LOGNAME",
    ];
    HARMLESS.contains(&name) || (name.starts_with("LC_") && !is_denied_env(name))
}
