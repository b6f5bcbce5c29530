"""Generate the Python protocol code from protos/ into arena/protocol/_pb/ (one command).

python scripts/gen_protos.py           # regenerate
python scripts/gen_protos.py --check   # exit 1 if the committed code is stale (CI)
"""

from __future__ import annotations

import argparse
import filecmp
import re
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
TARGET = ROOT / "arena" / "protocol" / "_pb"
PACKAGE = "arena.protocol._pb"


def generate(out: Path) -> None:
    """Run protoc on every .proto and make the generated imports package-relative."""
    sources = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.rglob("*.proto"))
    include = str(resources.files("grpc_tools") / "_proto")
    args = [
        "protoc",
        f"-I{PROTOS}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *sources,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for path in out.rglob("*.py*"):
        text = path.read_text()
        path.write_text(
            re.sub(r"^from riskarena\.", f"from {PACKAGE}.riskarena.", text, flags=re.M)
        )
    for folder in [out, *[p for p in out.rglob("*") if p.is_dir()]]:
        (folder / "__init__.py").touch()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed code is stale")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "_pb"
        fresh.mkdir()
        generate(fresh)
        if args.check:
            stale = _differences(fresh, TARGET)
            if stale:
                print("generated protocol code is stale; run: python scripts/gen_protos.py")
                for name in stale:
                    print(f"  {name}")
                return 1
            print("generated protocol code is up to date")
            return 0
        shutil.rmtree(TARGET, ignore_errors=True)
        shutil.copytree(fresh, TARGET)
    print(f"generated {TARGET.relative_to(ROOT)}")
    return 0


def _differences(fresh: Path, committed: Path) -> list[str]:
    names = {p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file()}
    names |= (
        {
            p.relative_to(committed)
            for p in committed.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        if committed.exists()
        else set()
    )
    return sorted(
        str(n)
        for n in names
        if not (fresh / n).is_file()
        or not (committed / n).is_file()
        or not filecmp.cmp(fresh / n, committed / n, shallow=False)
    )


if __name__ == "__main__":
    sys.exit(main())
