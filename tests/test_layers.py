"""The layers: rules → players → text → interfaces; no module imports upwards at run time, not
even inside a function (an import for type annotations only is fine), and none imports names
from the lazy ``kowah`` facade instead of the module that defines them. ``kowah.env`` (the
reinforcement-learning environments, which render the terminal's table) is an interface."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kowah"
#: Each module's layer, by its dotted name under kowah (a package: every module in it).
LAYERS = {
    "rules": ["_tables", "_value", "actions", "cards", "deal", "errors", "events", "hands", "record",
              "rules"],
    "players": ["_heuristic", "_levels", "coach", "players", "simulation"],
    "text": ["_words", "i18n", "rendering", "rulebook", "svg"],
    "interfaces": ["__main__", "_oserrors", "_recordfile", "_screen", "_simulating", "_view", "cli", "env",
                   "site", "table", "web"],
}
ORDER = list(LAYERS)
#: Upward imports known and not yet gone, as (importer, imported): each must still be there
#: (so that the list shrinks as they go) and no other may appear.
KNOWN: set[tuple[str, str]] = set()


def layer_of(module: str) -> str | None:
    """The layer of ``kowah.<module>`` (its first part names it), or None for the facade."""
    head = module.split(".")[0]
    for layer, names in LAYERS.items():
        if head in names:
            return layer
    return None


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).with_suffix("")
        parts = [part for part in relative.parts if part != "__init__"]
        if parts:
            found.append((".".join(parts), path))
    return found


def runtime_imports(tree: ast.Module) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of every import that runs: not under ``if TYPE_CHECKING:``."""
    found: list[tuple[int, str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.orelse:
                visit(statement)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module, [alias.name for alias in node.names]))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_every_module_has_a_layer() -> None:
    assert all(layer_of(name) for name, _ in modules()), [name for name, _ in modules() if not layer_of(name)]


def upward_imports(name: str, path: Path) -> set[tuple[str, str]]:
    """(name, imported module) for each import of *name* that runs upwards; an import of a
    name from the facade that is no submodule fails at once."""
    own = ORDER.index(layer_of(name))  # type: ignore[arg-type]
    found = set()
    for line, module, names in runtime_imports(ast.parse(path.read_text())):
        if module == "kowah":  # the facade: only its submodules by name, or __version__
            imported = [item for item in names if item != "__version__"]
            assert all(layer_of(item) for item in imported), (
                f"{name}:{line} imports {names} from the lazy facade, not from their modules")
        elif module.startswith("kowah."):
            imported = [module[len("kowah."):]]
        else:
            continue
        for target in imported:
            if ORDER.index(layer_of(target)) > own:  # type: ignore[arg-type]
                found.add((name, target))
    return found


@pytest.mark.parametrize(("name", "path"), modules(), ids=[name for name, _ in modules()])
def test_no_import_runs_upwards(name: str, path: Path) -> None:
    assert upward_imports(name, path) == {known for known in KNOWN if known[0] == name}


def test_nothing_imports_attrs_and_the_package_does_not_depend_on_it() -> None:
    """Every value is a kowah._value.Value: attrs (about 20 ms to import) is no dependency."""
    import tomllib

    for name, path in modules():
        imported = {module.split(".")[0] for _, module, _ in runtime_imports(ast.parse(path.read_text()))}
        assert not imported & {"attr", "attrs"}, name
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    assert [entry.split(">")[0] for entry in project["dependencies"]] == ["babel"]
