"""The stub recipes of docs/writing-a-bot.md work as written: the test reads each fenced block
after its ``<!-- recipe: NAME -->`` marker and runs it on a copy of ``protos/``, so the page
and the commands cannot drift apart. C++ is generated and compiled with Debian's protoc,
grpc_cpp_plugin and g++ (skipped, saying which is missing, where they are not installed);
Python with grpcio-tools; Go, whose plugins are not installed here, is checked as text."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "writing-a-bot.md"
PROTOS = ROOT / "protos"
BUDGET = 600  # seconds: generous, for a loaded machine; the compile takes ~20 s of CPU

# A bot's smallest use of the generated code: a message of each package and the stub.
BOT_CC = """\
#include <grpcpp/grpcpp.h>

#include "riskarena/v1/arena.grpc.pb.h"

int main() {
  riskarena::v1::BotMessage message;
  message.mutable_action()->set_request_id(1);
  message.mutable_action()->mutable_europe()->mutable_turn()->set_order("none");
  riskarena::v1::RefereeMessage reply;
  reply.mutable_decision()->mutable_options()->set_kind("attack");
  auto channel = grpc::CreateChannel("unix:/nonexistent", grpc::InsecureChannelCredentials());
  auto stub = riskarena::v1::Referee::NewStub(channel);
  return stub && message.action().has_europe() && reply.decision().has_options() ? 0 : 1;
}
"""


def recipe(name: str) -> str:
    """The shell commands of the fenced block that follows ``<!-- recipe: NAME -->``."""
    pattern = rf"<!-- recipe: {re.escape(name)} -->\n```sh\n(.*?)```"
    found = re.search(pattern, PAGE.read_text(), re.DOTALL)
    assert found, f"{PAGE.name} has no recipe block {name!r}"
    return found.group(1)


def proto_files() -> set[str]:
    """Every .proto file of the protocol, as a path under the include root."""
    return {p.relative_to(PROTOS).as_posix() for p in PROTOS.rglob("*.proto")}


def inputs(commands: str) -> set[str]:
    """The .proto files a recipe passes to protoc, as paths under the include root."""
    return set(re.findall(r"(?<![=\w])protos/(\S+\.proto)", commands))


def run_recipe(name: str, folder: Path) -> None:
    """Run recipe ``name`` with bash in ``folder``; fail with its output if it fails."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", recipe(name)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUDGET,
    )
    assert done.returncode == 0, f"recipe {name} failed:\n{done.stdout}\n{done.stderr}"


def copy_of_protos(tmp_path: Path) -> Path:
    """A bot folder holding a copy of ``protos/``, as the page says to keep it."""
    folder = tmp_path / "mybot"
    shutil.copytree(PROTOS, folder / "protos")
    return folder


def need(*tools: str) -> None:
    """Skip, naming them, when tools a recipe runs are not installed."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"not installed: {', '.join(missing)} (Debian: protobuf-compiler, "
            "protobuf-compiler-grpc, libgrpc++-dev, libprotobuf-dev, pkg-config, g++)"
        )


def need_libraries() -> None:
    """Skip when pkg-config does not know gRPC++ and protobuf (their -dev packages)."""
    need("pkg-config")
    known = subprocess.run(["pkg-config", "--exists", "grpc++", "protobuf"], check=False)
    if known.returncode != 0:
        pytest.skip("pkg-config knows no grpc++ or protobuf: install libgrpc++-dev libprotobuf-dev")


@pytest.mark.parametrize("name", ["cpp-generate", "go", "python"])
def test_every_recipe_passes_every_proto_file(name: str) -> None:
    assert inputs(recipe(name)) == proto_files()


def test_the_go_recipe_maps_every_file_for_both_plugins() -> None:
    commands = recipe("go")
    for plugin in ("go_opt", "go-grpc_opt"):
        mapped = set(re.findall(rf"--{plugin}=M(\S+\.proto)=", commands))
        assert mapped == proto_files(), plugin


def test_the_cpp_recipe_generates_every_header_it_includes(tmp_path: Path) -> None:
    need("protoc", "grpc_cpp_plugin")
    folder = copy_of_protos(tmp_path)
    run_recipe("cpp-generate", folder)
    gen = folder / "gen"
    for proto in proto_files():
        stem = proto.removesuffix(".proto")
        for suffix in (".pb.h", ".pb.cc", ".grpc.pb.h", ".grpc.pb.cc"):
            assert (gen / f"{stem}{suffix}").is_file(), f"{stem}{suffix}"
    included = {
        name
        for source in gen.rglob("*.*")
        for name in re.findall(r'#include "(riskarena/[^"]+)"', source.read_text())
    }
    assert included and all((gen / name).is_file() for name in included), included


def test_the_cpp_recipe_compiles_and_links_a_bot(tmp_path: Path) -> None:
    need("protoc", "grpc_cpp_plugin", "g++")
    need_libraries()
    folder = copy_of_protos(tmp_path)
    (folder / "bot.cc").write_text(BOT_CC)
    run_recipe("cpp-generate", folder)
    run_recipe("cpp-build", folder)
    ran = subprocess.run([str(folder / "bot")], capture_output=True, timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr


def test_the_python_recipe_generates_importable_modules(tmp_path: Path) -> None:
    pytest.importorskip("grpc_tools")
    folder = copy_of_protos(tmp_path)
    run_recipe("python", folder)
    check = (
        "import sys; sys.path.insert(0, 'gen')\n"
        "from riskarena.v1 import arena_pb2, arena_pb2_grpc\n"
        "m = arena_pb2.BotMessage(); m.action.europe.turn.order = 'none'\n"
        "assert m.action.HasField('europe') and arena_pb2_grpc.RefereeStub\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", check], cwd=folder, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
