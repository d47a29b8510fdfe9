"""`python -m qubic.proof all --scheduler ADDRESS`: the work on a Dask cluster (the cluster
extra), here a LocalCluster of two worker processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

from tests.positions import QUIET_END  # noqa: E402


def test_all_runs_its_work_on_a_dask_cluster(tmp_path: Path) -> None:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "qubic.proof",
                "all",
                "--scheduler",
                cluster.scheduler_address,
                "--dir",
                str(tmp_path / "cluster"),
                "--unit-nodes",
                "40",
                "--prover",
                "python",
                "--start",
                *QUIET_END.split(),
            ],
            capture_output=True,
            text=True,
            timeout=180,
        )
        with distributed.Client(cluster) as client:
            ran = client.run(lambda: __import__("sys").modules.get("qubic.proof.unit") is not None)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "X WINS: the proof is complete" in run.stdout
    assert "failures: 0" in run.stdout
    assert "workers busy" in run.stdout and "of 2 x" in run.stdout  # the cluster's two
    assert any(ran.values())  # the units ran in the cluster's workers
