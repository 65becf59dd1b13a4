"""``kowah --help`` lists every command and ``kowah CMD --help`` (and every usage error) is as it
was before the command built only the parser it needs (issue 29): tests/golden/cli-help.txt
was written by the earlier command. See tests/cli_help.py."""

from __future__ import annotations

import argparse

import cli_help
import pytest

from kowah import cli
from kowah.i18n import translator


def test_the_help_and_the_usage_errors_are_the_golden_text() -> None:
    assert cli_help.render() == cli_help.GOLDEN.read_text(encoding="utf-8")


def test_the_top_help_lists_every_command() -> None:
    text = cli_help.run(["--help"])
    block = text.split("\n  COMMAND\n", 1)[1].split("\n\n", 1)[0]  # the commands' list
    listed = [line.split()[0] for line in block.splitlines()]
    assert listed == list(cli_help.COMMANDS) == list(cli._COMMANDS)


@pytest.mark.parametrize("command", cli_help.COMMANDS)
def test_the_parser_built_for_one_command_parses_as_the_whole_parser(command: str) -> None:
    """The lazily built parser (only *command*'s options) and the whole one agree on the
    command's help and on what they parse."""
    t = translator("en")
    whole, lazy = cli.build_parser(t), cli.build_parser(t, command)
    argv = {"play": ["play", "--seed", "3", "--pack", "money"], "check": ["check", "5c", "--json"],
            "replay": ["replay", "-", "--json"], "rules": ["rules", "--format", "html"],
            "simulate": ["simulate", "--deals", "2", "--seats", "a,b,c", "--jobs", "2"],
            "serve": ["serve", "--port", "8001", "--no-save"], "site": ["site", "out"]}[command]
    assert vars(lazy.parse_args(argv)) == vars(whole.parse_args(argv))

    def sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
        found = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
        return found.choices[name]  # type: ignore[no-any-return]

    assert sub(lazy, command).format_help() == sub(whole, command).format_help()
    for other in cli_help.COMMANDS:  # the others are listed, their options not built
        options = {option for action in sub(lazy, other)._actions for option in action.option_strings}
        assert (options == {"-h", "--help", "--lang"}) == (other != command), other
