"""``arabesque serve`` as a person starts it: the address it prints is one that answers, and a
port already taken is refused in one line before anything else is said."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.server_client import free_port

ADDRESS_LINE = "Arabesque play server: http://127.0.0.1:"


def _serve(tmp_path: Path, port: int, out: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, ARABESQUE_DATA_DIR=str(tmp_path / "data"))
    env.pop("ARABESQUE_DATABASE_URL", None)
    with out.open("wb") as stdout:
        return subprocess.Popen(
            [sys.executable, "-u", "-m", "arabesque", "serve", "--port", str(port)],
            stdout=stdout,
            stderr=subprocess.DEVNULL,
            env=env,
        )


def test_the_address_is_printed_once_the_port_answers(tmp_path: Path) -> None:
    # It was printed before the app started (10-18 s before the port answered under load).
    port = free_port()
    out = tmp_path / "stdout.txt"
    proc = _serve(tmp_path, port, out)
    try:
        deadline = time.monotonic() + 90
        while ADDRESS_LINE not in out.read_text():
            assert proc.poll() is None, f"serve ended: {out.read_text()}"
            assert time.monotonic() < deadline, "no address within 90 s"
            time.sleep(0.005)
        # At once, no retry: the address printed is one that answers.
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        assert f"{ADDRESS_LINE}{port}/" in out.read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_busy_port_is_refused_before_any_address_is_printed(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        env = dict(os.environ, ARABESQUE_DATA_DIR=str(tmp_path / "data"))
        env.pop("ARABESQUE_DATABASE_URL", None)
        for module in ("arabesque", "arabesque.server"):
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    module,
                    *(["serve"] if module == "arabesque" else []),
                    "--port",
                    str(port),
                ],
                capture_output=True,
                text=True,
                env=env,
                timeout=90,
                check=False,
            )
            assert proc.returncode == 2, proc.stderr
            assert "http://" not in proc.stdout and proc.stdout == "", proc.stdout
            assert proc.stderr == (
                f"arabesque serve: error: port {port} is in use on 127.0.0.1 (another server "
                "running?): stop it, or choose another --port\n"
            )
        assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir()), (
            "no database is made for a server that cannot listen"
        )
