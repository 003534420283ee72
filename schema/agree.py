#!/usr/bin/env python3
"""Checks that the schema and `render validate` agree on the corpus.

usage: /usr/bin/python3 schema/agree.py [--render PATH] [-v]

Runs both on scenes/*.json and schema/cases/*/*.json and expects:
  scenes/, cases/valid/       both accept
  cases/invalid/              both reject
  cases/decoder-only/         the schema accepts, `render validate` rejects
                              (problems only the decoder can see)
Exits 0 when every file behaves as expected, 1 otherwise.
"""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import check  # noqa: E402


def main(argv):
    render = os.path.join(REPO, ".build", "debug", "render")
    verbose = "-v" in argv
    if "--render" in argv:
        render = argv[argv.index("--render") + 1]
    groups = [
        ("scene", sorted(glob.glob(os.path.join(REPO, "scenes", "*.json"))), (True, True)),
        ("valid", sorted(glob.glob(os.path.join(HERE, "cases", "valid", "*.json"))), (True, True)),
        ("invalid", sorted(glob.glob(os.path.join(HERE, "cases", "invalid", "*.json"))), (False, False)),
        ("decoder-only", sorted(glob.glob(os.path.join(HERE, "cases", "decoder-only", "*.json"))), (True, False)),
    ]
    import json
    with open(check.SCHEMA_PATH, encoding="utf-8") as f:
        check.schema_root = json.load(f)
    validator = check.SceneValidator(check.schema_root)

    bad = 0
    total = 0
    for group, files, (want_schema, want_render) in groups:
        for path in files:
            total += 1
            rel = os.path.relpath(path, REPO)
            problems = check.check(rel if os.getcwd() == REPO else path, validator)
            schema_ok = not problems
            r = subprocess.run([render, "validate", path], capture_output=True, text=True)
            if r.returncode not in (0, 65):
                print("%s: render validate exited %d: %s" % (rel, r.returncode, r.stderr.strip()))
                bad += 1
                continue
            render_ok = r.returncode == 0
            ok = (schema_ok, render_ok) == (want_schema, want_render)
            if not ok:
                bad += 1
            if not ok or verbose:
                print("%-4s %-13s %-70s schema:%-6s render:%s" % ("ok" if ok else "FAIL", group, rel,
                                                                 "accept" if schema_ok else "reject",
                                                                 "accept" if render_ok else "reject"))
                if verbose or not ok:
                    for line in problems:
                        print("       schema: " + line)
                    for line in r.stderr.strip().splitlines():
                        print("       render: " + line)
    print("%d files, %d disagreement%s" % (total, bad, "" if bad == 1 else "s"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
