"""The ``bgclock`` command line: ``bgclock serve | replay | rules | adjudicate``.

Each subcommand lives in its own module, imported only when it is used, so that
``bgclock replay`` never loads the web stack.  A subcommand module provides
``configure(parser)`` to declare its arguments and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from bgclock import __version__

#: Exit codes of a closed pipe (as a shell reports a process ended by SIGPIPE)
#: and of Ctrl-C before a command had started.
EXIT_PIPE = 141
EXIT_INTERRUPTED = 130

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("bgclock.server.cli", "run the tournament clock server"),
    "replay": ("bgclock.script", "run clock scripts (the conformance format)"),
    "rules": ("bgclock.rules_cli", "list the rule presets, or show one"),
    "adjudicate": ("bgclock.board.cli", "what can still happen in a position, and the ruling"),
    "contest": ("bgclock.contest", "run contest scripts (late arrival, Swing, couples)"),
    "draw": ("bgclock.draw_cli", "the draw of a Main and its Progressive Consolation"),
    "payouts": ("bgclock.payouts_cli", "an event's prize pool and what each place wins"),
    "publish-keys": ("bgclock.server.keys_cli",
                     "the keys venues publish to this (hosted) server with"),
    "clubs": ("bgclock.server.keys_cli",
              "the clubs of a hosted server: each club's director key"),
    "drain": ("bgclock.server.cluster.drain_cli",
              "hand a cluster process's tables over to the others, then stop it"),
}


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr (and exit code 2), not a usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(argv: Sequence[str]) -> tuple[argparse.ArgumentParser, object | None]:
    parser = Parser(
        prog="bgclock",
        description="Backgammon tournament clocks that follow the published clock rules.",
    )
    parser.add_argument("--version", action="version", version=f"bgclock {__version__}")
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
    try:
        parser, module = build_parser(args_list)
        args = parser.parse_args(args_list)
        if module is None:
            parser.print_help()
            return 0 if not args_list else 2
        code: int = module.run(args)  # type: ignore[attr-defined]
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``bgclock rules | head -1``): nothing more to
        # say, and nothing for the interpreter to flush at exit either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_PIPE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
