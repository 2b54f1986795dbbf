"""The ``xaid`` command: run the daemon, or check / print its configuration."""

from __future__ import annotations

import argparse
import sys

from . import __version__
from . import config as config_mod
from .config import ConfigError


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="xaid", description="On-device memory daemon for companion AIs.")
    parser.add_argument(
        "--config", help="TOML config file (default: /etc/xaid/xaid.toml, then $XDG_CONFIG_HOME/xaid/xaid.toml)"
    )
    parser.add_argument("--check-config", action="store_true", help="validate the configuration and exit")
    parser.add_argument("--print-config", action="store_true", help="print every key at its default, as TOML")
    parser.add_argument("--version", action="version", version=f"xaid {__version__}")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.print_config:
        print(config_mod.render_defaults())
        return 0
    try:
        cfg = config_mod.load(args.config)
    except ConfigError as exc:
        print(f"xaid: bad configuration: {exc}", file=sys.stderr)
        return 2
    if args.check_config:
        print(f"xaid: configuration OK ({cfg.source})")
        return 0
    from .lifespan import run
    from .listen import ListenError
    from .logs import setup

    setup(cfg.log.level)
    try:
        run(cfg, args.config)
    except ListenError as exc:
        print(f"xaid: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
