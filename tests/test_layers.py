"""The package's layers, read from its source: imports run one way, core <- search <- players
<- play <- ui; nothing outside `qubic.proof` imports it; nothing imports the integrations; no
module imports itself back through others. The command line loads prompt_toolkit only to ask
in a terminal.

Every import counts: inside functions, and under `if TYPE_CHECKING:` too (a type named for the
checker ties two modules together as much as one imported to run).
"""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "qubic"
ORDER = ["core", "search", "players", "play", "ui"]
# What each folder may import besides itself.
ALLOWED = {folder: set(ORDER[:rank]) for rank, folder in enumerate(ORDER)}
ALLOWED["integrations"] = {"core", "search", "players", "play"}
ALLOWED["proof"] = set(ORDER)
ALLOWED[""] = set(ORDER)  # qubic/__init__.py and __main__.py: the facade and the command


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(tree: ast.AST, name: str, is_package: bool) -> set[str]:
    """The qubic modules `tree` imports, anywhere in it: functions and `if TYPE_CHECKING:`
    included."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if is_package else name.split(".")[:-1]
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {module for module in found if module == "qubic" or module.startswith("qubic.")}


def graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    names = {module_name(path) for path in paths}
    edges = {}
    for path in paths:
        name = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = imports(tree, name, path.name == "__init__.py")
        edges[name] = {module for module in imported if module in names and module != name}
    return edges


def folder(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else ""


EDGES = graph()


def test_the_folders_import_only_the_layers_below_them():
    wrong = [
        f"{module} imports {target}"
        for module, targets in EDGES.items()
        for target in targets
        if folder(target) not in ALLOWED[folder(module)] | {folder(module), ""}
    ]
    assert not wrong


def test_nothing_outside_the_proof_imports_it():
    wrong = [
        f"{module} imports {target}"
        for module, targets in EDGES.items()
        for target in targets
        if folder(target) == "proof" and folder(module) != "proof"
    ]
    assert not wrong


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """An import cycle in `edges`, from a module back to itself; None if there is none."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for target in sorted(edges[module]):
            found = visit(target, [*path, module])
            if found is not None:
                return found
        done.add(module)
        return None

    return next(filter(None, (visit(module, []) for module in sorted(edges))), None)


def test_there_is_no_import_cycle():
    found = cycle(EDGES)
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_the_package_holds_few_loose_modules():
    assert len(list(PACKAGE.glob("*.py"))) <= 5


def test_the_walk_sees_imports_inside_functions():
    # The check must not be blind to the kind of import that once closed a cycle.
    tree = ast.parse("def f():\n    from qubic.players.levels import make_player\n")
    assert "qubic.players.levels" in imports(tree, "qubic.players.opening", False)


def test_the_walk_sees_imports_for_the_type_checker_only():
    source = "if TYPE_CHECKING:\n    from qubic.play.session import Session\n"
    assert "qubic.play.session" in imports(ast.parse(source), "qubic.play.commands", False)


def test_a_cycle_through_an_import_for_the_type_checker_is_found():
    # commands once imported Session for its annotations while session imported commands.
    source = "if TYPE_CHECKING:\n    from qubic.play.session import Session\n"
    typed = imports(ast.parse(source), "qubic.play.commands", False) & set(EDGES)
    edges = {**EDGES, "qubic.play.commands": EDGES["qubic.play.commands"] | typed}
    found = cycle(edges)
    assert found is not None and {"qubic.play.commands", "qubic.play.session"} <= set(found)


def test_the_command_line_starts_without_prompt_toolkit():
    # Piped input, the engine and the other commands start faster without it (some 50 ms).
    code = "import sys, qubic.ui.cli; print([m for m in sys.modules if 'prompt_toolkit' in m])"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "[]"
