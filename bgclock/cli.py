"""The ``bgclock`` command line: ``bgclock serve | replay | rules | adjudicate``.

Each subcommand lives in its own module, imported only when it is used, so that
``bgclock replay`` never loads the web stack.  A subcommand module provides
``configure(parser)`` to declare its arguments and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("bgclock.server.cli", "run the tournament clock server"),
    "replay": ("bgclock.script", "run clock scripts (the conformance format)"),
    "rules": ("bgclock.rules_cli", "list the rule presets, or show one"),
    "adjudicate": ("bgclock.board.cli", "what can still happen in a position, and the ruling"),
}


def build_parser(argv: Sequence[str]) -> tuple[argparse.ArgumentParser, object | None]:
    parser = argparse.ArgumentParser(
        prog="bgclock",
        description="Backgammon tournament clocks that follow the published clock rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = argv[0] if argv else None
    module = None
    for name, (module_name, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = importlib.import_module(module_name)
            module.configure(sp)
    return parser, module


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser, module = build_parser(args_list)
    args = parser.parse_args(args_list)
    if module is None:
        parser.print_help()
        return 0 if not args_list else 2
    code: int = module.run(args)  # type: ignore[attr-defined]
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
