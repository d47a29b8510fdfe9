"""The docs against the tree: docs/architecture.md gives every module of `qubic/` its line and
names none that is gone, and every `qubic/...py` path the docs and the README name exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PATH = re.compile(r"\bqubic/[\w/]*\w\.py\b")


def modules() -> set[str]:
    """Every module of the package, as a path from the repository's top folder."""
    return {path.relative_to(ROOT).as_posix() for path in (ROOT / "qubic").rglob("*.py")}


def documented(text: str) -> set[str]:
    """The modules an architecture text names: by their whole path anywhere, or as `name.py` in
    a table row under a heading naming their folder ('### `qubic/search/`'), where a row whose
    first cell is a subfolder (`tui/`) names that subfolder's modules."""
    found = set(PATH.findall(text))
    folder = None
    for line in text.splitlines():
        heading = re.match(r"#+ `(qubic/[\w/]+/)`", line)
        if heading or line.startswith("#"):
            folder = heading[1] if heading else None
        elif folder and line.startswith("|"):
            sub = re.fullmatch(r"\s*`(\w+/)`\s*", line.split("|")[1])
            base = folder + (sub[1] if sub else "")
            found.update(base + name for name in re.findall(r"`(\w+\.py)`", line))
    return found


def test_architecture_gives_every_module_a_line():
    assert sorted(modules() - documented(ARCHITECTURE.read_text(encoding="utf-8"))) == []


def test_architecture_names_no_module_that_is_gone():
    assert sorted(documented(ARCHITECTURE.read_text(encoding="utf-8")) - modules()) == []


def test_a_module_left_out_of_its_folders_table_is_missing():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `prover.py` |"))
    assert "qubic/search/prover.py" in documented(text)
    assert "qubic/search/prover.py" not in documented(text.replace(row + "\n", ""))
    tui = "| `tui/` | the full screen: `app.py` the screen |"
    assert documented(f"### `qubic/ui/`: front ends\n\n{tui}\n") == {"qubic/ui/tui/app.py"}


def test_every_module_path_the_docs_and_the_readme_name_exists():
    named = {
        (doc.relative_to(ROOT).as_posix(), path)
        for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        for path in PATH.findall(doc.read_text(encoding="utf-8"))
    }
    assert named, "the docs name modules by their paths"
    assert sorted((doc, path) for doc, path in named if not (ROOT / path).is_file()) == []
