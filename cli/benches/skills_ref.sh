#!/usr/bin/env bash
# Times `toolsmith lint` against the reference validator `skills-ref validate`
# (PyPI package `skills-ref`, command `agentskills`) over the same 175 Agent
# Skills directories of the corpus. Target: toolsmith at least 50x faster.
#
#   bash cli/benches/skills_ref.sh            # from the repository root
#   TOOLSMITH_CORPUS=/path/to/corpus bash cli/benches/skills_ref.sh
#
# Three numbers for skills-ref, because it validates one directory per call:
#   * cli loop:   `agentskills validate DIR` for each directory (what a CI job does);
#   * in-process: one Python process calling `skills_ref.validate(dir)` in a loop
#                 (no interpreter start-up: the most favourable case for skills-ref);
# and for toolsmith one `toolsmith lint --format json CORPUS/agent-skills-md`
# (a process start, the walk, parsing and all rules), median of several runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus="${TOOLSMITH_CORPUS:-../shared/corpus}"
skills="$corpus/agent-skills-md"
if [ ! -d "$skills" ]; then
    echo "notice: $skills is absent; nothing to compare" >&2
    exit 0
fi
if ! python3 -c 'import skills_ref' 2>/dev/null; then
    echo "installing skills-ref (pip install skills-ref)" >&2
    python3 -m pip install --quiet skills-ref
fi
cargo build --quiet --release -p toolsmith-cli
toolsmith="$PWD/target/release/toolsmith"

python3 - "$toolsmith" "$skills" <<'EOF'
import pathlib, shutil, statistics, subprocess, sys, time

toolsmith, skills = sys.argv[1], pathlib.Path(sys.argv[2])
dirs = sorted({p.parent for p in skills.rglob("*") if p.name in ("SKILL.md", "skill.md")})
print(f"{len(dirs)} skill directories under {skills}")

def timed(fn, runs):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)

def toolsmith_run():
    r = subprocess.run([toolsmith, "lint", "--format", "json", str(skills)], capture_output=True)
    assert r.returncode in (0, 1), r.stderr.decode()

def cli_loop():
    exe = shutil.which("agentskills") or "agentskills"
    for d in dirs:
        subprocess.run([exe, "validate", str(d)], capture_output=True)

def in_process():
    from skills_ref.validator import validate
    failed = sum(1 for d in dirs if validate(d))
    in_process.failed = failed

t_tool = timed(toolsmith_run, 15)
t_proc = timed(in_process, 3)
t_cli = timed(cli_loop, 1)
print(f"toolsmith lint (1 process)        {t_tool * 1000:9.1f} ms")
print(f"skills-ref in-process loop        {t_proc * 1000:9.1f} ms   ({t_proc / t_tool:6.1f}x toolsmith; {in_process.failed} failing)")
print(f"agentskills validate, one per dir {t_cli * 1000:9.1f} ms   ({t_cli / t_tool:6.1f}x toolsmith)")
EOF
