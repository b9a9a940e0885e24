"""Checks the syntax of the repository's Dockerfile with dockerfile-parse (PyPI), run by
scripts/test-kubernetes.sh: every instruction is a Dockerfile instruction, the build is
multi-stage (a release build, then a runtime), and the runtime holds the binary and decks/.
Base images cannot be fetched here, so this checks the file, not a build."""

import sys

from dockerfile_parse import DockerfileParser

KNOWN = {
    "ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV", "EXPOSE", "FROM", "HEALTHCHECK",
    "LABEL", "MAINTAINER", "ONBUILD", "RUN", "SHELL", "STOPSIGNAL", "USER", "VOLUME",
    "WORKDIR", "COMMENT",
}


def main(path: str) -> int:
    with open(path, "rb") as f:
        parser = DockerfileParser(fileobj=f)
        structure = parser.structure
    errors = []
    for i in structure:
        if i["instruction"] not in KNOWN:
            errors.append(f"{path}:{i['startline'] + 1}: unknown instruction {i['instruction']!r}")
        if i["instruction"] != "COMMENT" and not i["value"].strip():
            errors.append(f"{path}:{i['startline'] + 1}: {i['instruction']} without arguments")
    froms = [i for i in structure if i["instruction"] == "FROM"]
    if len(froms) < 2:
        errors.append(f"{path}: expected a multi-stage build (two FROM), found {len(froms)}")
    else:
        stage = froms[0]["value"].split()
        if len(stage) != 3 or stage[1].upper() != "AS":
            errors.append(f"{path}:{froms[0]['startline'] + 1}: the build stage needs a name (FROM IMAGE AS NAME)")
        last = [i for i in structure if i["startline"] > froms[-1]["startline"]]
        copies = [i["value"] for i in last if i["instruction"] == "COPY"]
        if not any(c.startswith(f"--from={stage[-1]} ") and "confluence-sim" in c for c in copies):
            errors.append(f"{path}: the runtime stage does not copy the binary from the build stage")
        if not any(c.split()[0].rstrip("/") == "decks" for c in copies if c.split()):
            errors.append(f"{path}: the runtime stage does not copy decks/")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "Dockerfile"))
