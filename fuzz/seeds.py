#!/usr/bin/env python3
"""Writes the seed inputs of one fuzz target into a corpus directory.

usage: seeds.py TARGET OUT_DIR REPO [CORPUS]

Seeds come from the repository's fixtures and, when present, the shared
corpus of real manifests (CORPUS). Each seed is framed as the target reads
its input (a selector byte first, parts split at NUL). Files are named by
the SHA-1 of their content, so running this twice adds nothing.
"""

import hashlib
import json
import os
import sys

MAX_SEED = 256 * 1024


def files(roots, accept):
    for root in roots:
        if not root or not os.path.isdir(root):
            continue
        for base, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in ("target", ".git", "corpus", "artifacts"))
            for name in sorted(names):
                path = os.path.join(base, name)
                if accept(name) and os.path.isfile(path) and os.path.getsize(path) <= MAX_SEED:
                    yield path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def is_json(name):
    return name.endswith(".json") and name not in ("index.json", "argv-cases.json")


def is_skill(name):
    return name in ("SKILL.md", "skill.md") or name.endswith(".skill.md")


def seeds(target, repo, corpus):
    roots = [os.path.join(repo, "fixtures"), corpus]
    if target == "json":
        for p in files(roots, is_json):
            yield read(p)
    elif target == "frontmatter":
        for p in files(roots, is_skill):
            yield read(p)
    elif target == "lint_json":
        split_dirs = set()
        for p in files(roots, is_json):
            name = os.path.basename(p)
            if name in ("allowlist.json", "execution.json"):
                split_dirs.add(os.path.dirname(p))
                continue
            body = read(p)
            if name.endswith(".describe.json"):
                yield b"\x04" + body
            else:
                for selector in (0, 2, 3, 8 + 2, 16 + 2):
                    yield bytes([selector]) + body
        for d in sorted(split_dirs):
            parts = [os.path.join(d, n) for n in ("tools.json", "allowlist.json", "execution.json")]
            yield b"\x06" + b"\x00".join(read(p) if os.path.isfile(p) else b"" for p in parts)
    elif target == "lint_skill":
        for p in files(roots, is_skill):
            body = read(p)
            for selector in (0, 2, 4, 0x80):
                yield bytes([selector]) + body
    elif target in ("toolcall", "dispatch"):
        cases = json.load(open(os.path.join(repo, "fixtures/chai/argv-cases.json")))["cases"]
        arguments = {json.dumps(c.get("arguments", {}), ensure_ascii=False) for c in cases}
        arguments |= {"{}", "", '{"path":"notes/a.md"}', '{"path":"-n","lines":3}',
                      '{"location":"Paris","unit":"celsius"}', '{"timezone":"UTC"}',
                      '{"url":"https://example.com","max_bytes":10}', '{"text":"--help"}'}
        for args in sorted(arguments):
            for selector in range(0, 256, 5):
                yield bytes([selector]) + args.encode()
    else:
        sys.exit(f"seeds.py: unknown target {target}")


def main():
    target, out, repo = sys.argv[1:4]
    corpus = sys.argv[4] if len(sys.argv) > 4 else None
    os.makedirs(out, exist_ok=True)
    n = 0
    for seed in seeds(target, repo, corpus):
        name = hashlib.sha1(seed).hexdigest()
        path = os.path.join(out, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(seed)
            n += 1
    print(f"seeds.py: {n} new seeds for {target} in {out}")


if __name__ == "__main__":
    main()
