"""``xaid --list-models``, ``--install-model NAME`` and ``--prepare-model [NAME]``: the catalogue from a
shell, and a model made ready before the daemon needs it (joining and hashing the 1.5B takes a
while on a Pi; doing it ahead keeps the first start quick)."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import catalogue as models
from ..config import Config
from ..paths import state_dir
from . import model_files


def models_dir(cfg: Config) -> Path:
    return state_dir(cfg) / "models"


def _progress(line: str) -> None:
    print(f"xaid: {line}", file=sys.stderr, flush=True)


def _chosen(cfg: Config, name: str | None) -> models.ModelSpec | None:
    try:
        return models.get(name if name is not None else cfg.llm.model)
    except models.UnknownModel as exc:
        print(f"xaid: {exc}", file=sys.stderr)
        return None


def list_models(cfg: Config) -> int:
    directory = models_dir(cfg)
    chosen = "" if cfg.llm.model_path else models.get(cfg.llm.model).name
    print(f"{'name':<20} {'size':>8} {'RAM':>7} {'languages':<10} {'license':<11} installed")
    for spec in models.CATALOGUE:
        st = model_files.status(spec, directory)
        if st.verified:
            where = f"yes, verified: {st.path}"
        elif st.path is not None:
            where = f"yes, not yet verified: {st.path}"
        elif st.packages_present == len(spec.packages):
            where = f"packages installed, joined at first use (or now: xaid --prepare-model {spec.name})"
        elif st.packages_present:
            where = f"partly ({st.packages_present}/{len(spec.packages)} packages; xaid --install-model {spec.name})"
        else:
            where = f"no (xaid --install-model {spec.name})"
        mark = "*" if spec.name == chosen else " "
        print(
            f"{mark}{spec.name:<19} {spec.size / 1e6:>6.0f}MB {spec.ram_mb / 1000:>5.1f}GB "
            f"{','.join(spec.languages):<10} {spec.license:<11} {where}"
        )
        print(f"  {spec.description}")
    if cfg.llm.model_path:
        print(f"llm.model_path = {cfg.llm.model_path} is used instead of the catalogue")
    else:
        print(f"* the configured model (llm.model); joined files live in {directory}")
    return 0


def prepare_model(cfg: Config, name: str | None) -> int:
    spec = _chosen(cfg, name)
    if spec is None:
        return 2
    try:
        path = model_files.prepare(spec, models_dir(cfg), _progress)
    except model_files.ModelUnavailable as exc:
        print(f"xaid: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"xaid: cannot prepare model {spec.name}: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


def install_model(cfg: Config, name: str) -> int:
    spec = _chosen(cfg, name)
    if spec is None:
        return 2
    code = model_files.pip_install(spec)
    if code != 0:
        print(f"xaid: pip could not install model {spec.name} (exit {code})", file=sys.stderr)
        return 1
    return prepare_model(cfg, spec.name)
