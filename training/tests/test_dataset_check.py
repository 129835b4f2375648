"""docs/predictor_dataset_check.py: passes on a faithful dataset, catches a broken one."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from make_fixture import write_dataset

from conftest import REPO, RUST_FIXTURE, SMALL_PGN

CHECK = REPO / "docs" / "predictor_dataset_check.py"


def check(pgns: list[Path], data: Path) -> subprocess.CompletedProcess:
    """Run the check script."""
    return subprocess.run([sys.executable, str(CHECK), *map(str, pgns), "--data", str(data)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python-chess dataset of lichess_db_100k.pgn."""
    out = tmp_path_factory.mktemp("small")
    write_dataset([SMALL_PGN], out, min_ply=8, valid_every=5, seed=3)
    return out


def test_check_passes_on_a_faithful_dataset(small: Path) -> None:
    result = check([SMALL_PGN], small)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "mismatches: 0" in result.stdout


@pytest.mark.parametrize("array", ["boards", "legal", "game"])
def test_check_finds_a_changed_row(small: Path, tmp_path: Path, array: str) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(small, broken)
    values = np.load(broken / "valid" / f"{array}.npy")
    values.reshape(-1)[7] ^= 1 << 3
    np.save(broken / "valid" / f"{array}.npy", values)
    result = check([SMALL_PGN], broken)
    assert result.returncode == 1
    expected = {"boards": "planes [", "legal": "legal moves only in the dataset",
                "game": "only in the dataset"}[array]
    assert expected in result.stdout, result.stdout


def test_rust_fixture_matches_python_chess() -> None:
    if not (RUST_FIXTURE / "meta.json").exists():
        pytest.skip(f"no Rust-made fixture at {RUST_FIXTURE}")
    sources = json.loads((RUST_FIXTURE / "meta.json").read_text())["sources"]
    pgns = [REPO / "tests" / "fixtures" / Path(source["path"]).name for source in sources]
    if not all(pgn.exists() for pgn in pgns):
        pytest.skip(f"the fixture's PGN files are not all in tests/fixtures: {pgns}")
    result = check(pgns, RUST_FIXTURE)
    assert result.returncode == 0, result.stdout + result.stderr
