#!/usr/bin/env bash
# Installs ucmpi's build dependencies (Debian 12), builds it out of tree and
# installs it into a local prefix.  Idempotent: re-running only rebuilds
# what changed.
#   PREFIX    install prefix            (default: <repo>/install)
#   BUILDDIR  build directory           (default: <repo>/build)
#   CONFIGURE_FLAGS  extra ./configure flags (e.g. --enable-asan)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-$repo/install}
BUILDDIR=${BUILDDIR:-$repo/build}
CONFIGURE_FLAGS=${CONFIGURE_FLAGS:-}

packages=(build-essential autoconf automake libtool pkg-config
          libucx-dev ucx-utils libpmix-dev libhwloc-dev check
          valgrind clang iproute2 procps gfortran python3
          chromium)   # the profile test renders its page (test/mpi/mpit/profile.c)

install_packages() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

install_packages
cd "$repo"
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null
mkdir -p "$BUILDDIR"
cd "$BUILDDIR"
if [ ! -f config.status ] || [ "$(cat .ucmpi-configured 2>/dev/null)" != "$PREFIX $CONFIGURE_FLAGS" ]; then
    # shellcheck disable=SC2086
    "$repo/configure" --prefix="$PREFIX" --enable-werror $CONFIGURE_FLAGS >configure.out \
        || { tail -30 configure.out; exit 1; }
    echo "$PREFIX $CONFIGURE_FLAGS" > .ucmpi-configured
fi
make -j"$(nproc)" >make.out 2>&1 || { grep -E "error|Error" -A3 make.out | head -60; exit 1; }
make install >install.out 2>&1 || { tail -30 install.out; exit 1; }
echo "setup: ucmpi built in $BUILDDIR and installed in $PREFIX"
