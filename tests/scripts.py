"""The scripts of `benchmarks/` and `research/`, loaded as modules for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(folder: str, name: str) -> ModuleType:
    """`folder/name.py` as the module `name`. Its folder goes on the path first, for the
    neighbours a script imports (`bench`)."""
    path = ROOT / folder / f"{name}.py"
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and named tuples look their module up by name
    spec.loader.exec_module(module)
    return module
