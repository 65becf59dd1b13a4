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
    "rules": ["_ready_index", "_value", "actions", "cards", "deal", "errors", "events", "hands", "record",
              "_record_rules", "engine", "_moved", "rules"],
    "players": ["_heuristic", "_levels", "coach", "players", "plugins", "simulation"],
    "text": ["_babel", "_words", "i18n", "keys", "rendering", "rulebook", "svg"],
    "interfaces": ["__main__", "_check_command", "_cli_options", "_oserrors", "_recordfile", "_screen",
                   "_simulating", "_view", "cli", "env",
                   "site", "table", "terminal", "web"],
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


def test_every_value_is_an_attrs_class_and_the_package_depends_on_attrs() -> None:
    """The one value mechanism is attrs: every kowah._value.Value subclass is an @attrs.frozen
    class (so no hand-made __init__ escapes its checks), and attrs is a dependency."""
    import importlib
    import inspect
    import tomllib

    import attrs

    from kowah._value import Value

    values = []
    for name, _ in modules():
        if name.startswith(("web", "env")) or name in {"__main__", "rules", "table"}:  # old names
            continue  # their extras may be missing; tests/test_web_values.py checks the web's
        module = importlib.import_module(f"kowah.{name}")
        values += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                   if issubclass(cls, Value) and cls is not Value and cls.__module__ == module.__name__]
    assert len(values) >= 20
    for cls in values:
        assert attrs.has(cls) and "__attrs_attrs__" in cls.__dict__, cls
        positional = [field.name for field in attrs.fields(cls) if not field.kw_only]
        assert attrs.fields(cls) and list(getattr(cls, "__match_args__", ())) == positional, cls
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    assert [entry.split(">")[0] for entry in project["dependencies"]] == ["attrs", "babel"]


def test_the_environments_render_through_the_view_not_the_terminal_game() -> None:
    """kowah.env.render draws with the terminal's table view (kowah._view), not through the
    terminal game (kowah.terminal), which would load players, the coach and the game loop."""
    imports = runtime_imports(ast.parse((PACKAGE / "env" / "render.py").read_text()))
    modules = {module for _, module, _ in imports}
    assert "kowah._view" in modules and "kowah.terminal" not in modules
    assert not any(module == "kowah" and "table" in names for _, module, names in imports)


def test_a_card_argument_is_checked_by_one_function() -> None:
    """The text layer's names and pictures of a card check it with kowah.cards.checked_card (the
    copy in i18n and svg is gone)."""
    import kowah.cards
    import kowah.i18n
    import kowah.svg

    for module in (kowah.i18n, kowah.svg):
        assert vars(module)["_check_card"] is kowah.cards.checked_card, module.__name__
        assert "def _check_card" not in Path(module.__file__ or "").read_text()


#: The layers inside ``kowah.web``, lowest first: values and helpers; a table and its saved
#: form; where games are kept (and the thread that changes them); what answers HTTP and the
#: socket; the application and the server that runs it. A module imports only its own layer or
#: lower ones.
WEB_LAYERS = {
    "values": ["_checks", "addresses", "ai_players", "answers", "language", "phrases", "said", "text",
               "threads"],
    "table": ["game", "saved", "seats"],
    "storage": ["store", "store_postgres", "store_sql", "store_sqlite", "writer"],
    "endpoints": ["api", "live", "page", "page_endpoints", "problems", "review", "table_requests"],
    "application": ["app", "server"],
}
WEB_ORDER = list(WEB_LAYERS)


def web_layer(module: str) -> int:
    return next(WEB_ORDER.index(layer) for layer, names in WEB_LAYERS.items() if module in names)


WEB_MODULES = sorted(path.stem for path in (PACKAGE / "web").glob("*.py") if path.stem != "__init__")


def test_every_web_module_has_a_layer() -> None:
    assert all(any(name in names for names in WEB_LAYERS.values()) for name in WEB_MODULES), WEB_MODULES


@pytest.mark.parametrize("name", WEB_MODULES)
def test_no_web_module_imports_a_higher_web_layer(name: str) -> None:
    own = web_layer(name)
    tree = ast.parse((PACKAGE / "web" / f"{name}.py").read_text())
    for line, module, names in runtime_imports(tree):
        if module == "kowah.web":
            targets = names
        elif module.startswith("kowah.web."):
            targets = [module.split(".")[2]]
        else:
            continue
        for target in targets:
            assert web_layer(target) <= own, (
                f"kowah.web.{name}:{line} imports kowah.web.{target}, a higher layer")
