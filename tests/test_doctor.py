"""``arena doctor`` and the isolation settings every bot-starting command checks first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.sandbox.isolation import detect


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, str]]]:
    code = main(["doctor", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def by_name(checks: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    return {c["name"]: c for c in checks}


def test_layers_turned_off_are_reported_with_what_follows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_ISOLATION", "off")
    code, checks = doctor(capsys, "--no-trial")
    found = by_name(checks)
    assert code == 0
    for layer in ("layer: users", "layer: namespaces"):
        assert found[layer] == {
            "name": layer,
            "state": "off",
            "detail": "turned off by $ARENA_ISOLATION",
        }
    assert found["session binding"]["state"] == "off"
    assert "/proc/<pid>/environ" in found["session binding"]["detail"]
    assert found["descendants"]["state"] == "warn"
    assert "setsid" in found["descendants"]["detail"]
    assert "trial" not in found
    assert {c["state"] for c in checks} <= {"on", "off", "warn", "fail"}


def test_every_layer_on_and_a_bundled_bot_connects_under_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_ISOLATION", "auto")
    off = [layer for layer in detect().layers if not layer.active]
    if off:
        pytest.skip("; ".join(f"layer {layer.name} is off: {layer.why}" for layer in off))
    code, checks = doctor(capsys)
    found = by_name(checks)
    assert code == 0
    assert found["layer: users"]["state"] == found["layer: namespaces"]["state"] == "on"
    assert found["session binding"]["state"] == "on"
    assert found["network"]["state"] == "on"
    assert "PID namespace" in found["descendants"]["detail"]
    assert found["trial"]["state"] == "on", found["trial"]
    assert "connected in" in found["trial"]["detail"]


def test_a_required_layer_that_is_missing_fails_the_doctor_and_stops_a_match(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_ISOLATION", "users")
    monkeypatch.setenv("ARENA_SEAT_UIDS", "5-1")  # no usable range: the layer cannot be on
    code, checks = doctor(capsys, "--no-trial")
    assert code == 1
    assert checks[0]["state"] == "fail"
    assert "isolation layer 'users' is not available" in checks[0]["detail"]
    assert main(["match", "--bot", "random", "--bot", "random", "--no-replay"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("arena: error: isolation layer 'users'")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("bogus", "unknown layer 'bogus'; expected auto, off or a comma list of users, namespaces"),
        ("users,nope", "unknown layer 'nope'"),
    ],
)
def test_a_bad_isolation_setting_is_a_one_line_error_before_anything_starts(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    value: str,
    message: str,
) -> None:
    monkeypatch.setenv("ARENA_ISOLATION", value)
    db = tmp_path / "arena.db"
    code = main(["tournament", "run", "--bot", "random", "--bot", "random", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err
    assert not db.exists()


def test_a_bad_uid_range_says_the_form(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.errors import ArenaError
    from arena.sandbox.isolation import parse_uids

    assert parse_uids("2000-2999") == (2000, 2999)
    for bad in ("2000", "a-b", "3000-2000", "10-20", "2000-4294967295"):
        with pytest.raises(ArenaError, match="ARENA_SEAT_UIDS"):
            parse_uids(bad)
