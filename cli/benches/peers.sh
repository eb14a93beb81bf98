#!/usr/bin/env bash
# toolsmith lint against its peers on the Agent Skills directories of the
# corpus, side by side: agnix (an agent-configuration linter; PyPI `agnix`
# ships its binary) and the reference validator skills-ref (PyPI `skills-ref`,
# command `agentskills validate DIR`, one directory per call).
#
#   bash cli/benches/peers.sh                 # from anywhere in the repository
#   TOOLSMITH_CORPUS=/path/to/corpus RUNS=15 bash cli/benches/peers.sh
#
# The peers are installed from PyPI into a virtual environment under
# target/peers-venv (once). Every process is started from Python and reaped
# with wait4, so wall time, CPU time (user + system) and peak memory (maxrss)
# are the process's own. Reported:
#   * toolsmith: one `toolsmith lint --format json DIR` over all directories,
#     median of RUNS runs (CPU and peak memory of the median run: medians too);
#   * agnix: one `agnix --format json DIR` run, same statistics;
#   * skills-ref: `agentskills validate D` once per directory D; the sum over all
#     directories (median of RUNS_SKILLS_REF passes) and the median single call.
# Targets (issue 10): toolsmith at least 20x faster than agnix and at least
# 1,000x faster than skills-ref called once per directory (wall time).
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus="${TOOLSMITH_CORPUS:-../shared/corpus}"
skills="$corpus/agent-skills-md"
if [ ! -d "$skills" ]; then
    echo "notice: $skills is absent; nothing to compare" >&2
    exit 0
fi
venv="target/peers-venv"
if [ ! -x "$venv/bin/agnix" ] || [ ! -x "$venv/bin/agentskills" ]; then
    echo "installing agnix and skills-ref from PyPI into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet agnix skills-ref
fi
cargo build --quiet --release -p toolsmith-cli
export AGNIX_TELEMETRY=0 DO_NOT_TRACK=1

python3 - "$PWD/target/release/toolsmith" "$venv/bin" "$skills" "${RUNS:-15}" "${RUNS_SKILLS_REF:-3}" <<'EOF'
import os, pathlib, statistics, subprocess, sys, time

toolsmith, venv_bin, skills, runs, runs_ref = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
dirs = sorted({p.parent for p in skills.rglob("*") if p.name in ("SKILL.md", "skill.md")})
print(f"{len(dirs)} Agent Skills directories under {skills}")
agnix_version = subprocess.run([venv_bin / "agnix", "--version"], capture_output=True, text=True).stdout.strip()
ref_version = subprocess.run([venv_bin / "python", "-c", "import importlib.metadata as m; print(m.version('skills-ref'))"], capture_output=True, text=True).stdout.strip()
print(f"{agnix_version}; skills-ref {ref_version}")

def run(argv):
    """Wall seconds, CPU seconds and peak RSS (MiB) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode

def medians(samples):
    return tuple(statistics.median(s[i] for s in samples) for i in range(3))

def one_run(name, argv, n):
    samples = [run(argv) for _ in range(n)]
    codes = {s[3] for s in samples}
    wall, cpu, rss = medians(samples)
    print(f"{name:<44} wall {wall * 1000:9.1f} ms   cpu {cpu * 1000:9.1f} ms   peak {rss:6.1f} MiB   exit {sorted(codes)}")
    return wall

t = one_run("toolsmith lint (one process, all dirs)", [toolsmith, "lint", "--format", "json", str(skills)], runs)
a = one_run("agnix (one process, all dirs)", [venv_bin / "agnix", "--format", "json", str(skills)], runs)

passes, calls = [], []
for _ in range(runs_ref):
    per_dir = [run([venv_bin / "agentskills", "validate", str(d)]) for d in dirs]
    calls.extend(per_dir)
    passes.append((sum(s[0] for s in per_dir), sum(s[1] for s in per_dir), max(s[2] for s in per_dir)))
wall, cpu, rss = medians(passes)
c_wall, c_cpu, c_rss = medians(calls)
failing = sum(1 for s in calls[: len(dirs)] if s[3] != 0)
print(f"{'skills-ref validate, once per dir (sum)':<44} wall {wall * 1000:9.1f} ms   cpu {cpu * 1000:9.1f} ms   peak {rss:6.1f} MiB   ({failing} dirs failing)")
print(f"{'skills-ref validate, one call (median)':<44} wall {c_wall * 1000:9.1f} ms   cpu {c_cpu * 1000:9.1f} ms   peak {c_rss:6.1f} MiB")
print(f"toolsmith is {a / t:.1f}x faster than agnix (target >= 20x) and {wall / t:.0f}x faster than skills-ref once per directory (target >= 1000x)")
EOF
