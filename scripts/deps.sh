#!/bin/sh
# Install the Debian 12 packages gpuest needs, if any are missing.
# Used by `make run` and `make test` (and so by .ci/run).  Needs root or sudo.
set -e
PKGS="build-essential cmake pkg-config libgsl-dev libconfig-dev libopenblas-dev liblzma-dev libcmocka-dev clang"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "gpuest: installing$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
