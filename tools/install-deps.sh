#!/bin/sh
# Install the Debian packages calltrace needs to build, test and benchmark,
# if any is missing.  Needs root (or sudo) only when something is missing.
set -e
PKGS="gcc g++ make clang libelf-dev libdw-dev libc6-dev binutils valgrind protobuf-compiler"
[ -n "$CALLTRACE_EXTRA_PKGS" ] && PKGS="$PKGS $CALLTRACE_EXTRA_PKGS"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
$SUDO apt-get install -y -q $missing >/dev/null
