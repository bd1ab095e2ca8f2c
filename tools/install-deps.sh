#!/bin/sh
# Install the Debian packages calltrace needs to build, test and benchmark,
# if any is missing.  Needs root (or sudo) only when something is missing.
set -e
# nodejs, npm: the HTML report's libraries (web/, npm ci below; and
# mermaid, which export --format=mermaid's browser test renders with);
# chromium: its browser test; protobuf-compiler: protoc reads the perfetto export back;
# clang-format: make format-check; go-md2man: the man pages from doc/*.md
# (make man, make install; 2 MB, where pandoc takes 100+); man-db: the
# install test reads them back; libncurses-dev: calltrace tui; tmux: its
# tests; graphviz: export --format=dot's test reads it back
PKGS="gcc g++ make clang libelf-dev libdw-dev libc6-dev libncurses-dev binutils valgrind chromium protobuf-compiler clang-format go-md2man man-db tmux graphviz"
# the aarch64 runtime and its tests under emulation (make aarch64, make
# check-aarch64, doc/testing.md): the cross compilers, the aarch64 libc and
# qemu-user (some 150 MB); CHECK_AARCH64=0 leaves them out, and the
# aarch64 cases are then skipped, saying so.  The a64-clang-* variants
# need nothing more: clang --target=aarch64-linux-gnu finds the cross
# binutils and the cross gcc's libraries (libgcc, libstdc++) by itself
[ "${CHECK_AARCH64:-1}" != 0 ] &&
	PKGS="$PKGS gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
[ -n "$CALLTRACE_EXTRA_PKGS" ] && PKGS="$PKGS $CALLTRACE_EXTRA_PKGS"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
# node and npm by command: a nodejs package that bundles npm conflicts
# with Debian's npm package
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
	echo "install-deps: installing:$missing" >&2
	SUDO=""
	[ "$(id -u)" -ne 0 ] && SUDO=sudo
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -q >/dev/null
	$SUDO apt-get install -y -q $missing >/dev/null
fi

# the calltrace program for aarch64 (make aarch64-cli, the a64_views case):
# Debian's arm64 libdw, libelf and ncursesw (and what libdw loads),
# unpacked into CALLTRACE_ARM64_ROOT, not installed as arm64 packages:
# those bring the multiarch libc6:arm64, which qemu-aarch64 -L
# /usr/aarch64-linux-gnu pairs with the cross libc's ld.so, and emulated
# programs then hang in fork.  Some 3 MB; without them make aarch64
# builds the runtime alone and a64_views is skipped, saying so
A64ROOT=${CALLTRACE_ARM64_ROOT:-/opt/calltrace-arm64}
A64DEBS="libdw-dev libdw1 libelf-dev libelf1 zlib1g liblzma5 libbz2-1.0 libncursesw6 libtinfo6"
if [ "${CHECK_AARCH64:-1}" != 0 ] && [ ! -f "$A64ROOT/usr/lib/aarch64-linux-gnu/libdw.so" ]; then
	echo "install-deps: the arm64 libraries of calltrace into $A64ROOT" >&2
	SUDO=""
	[ "$(id -u)" -ne 0 ] && SUDO=sudo
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$SUDO dpkg --add-architecture arm64
		$SUDO apt-get update -q >/dev/null
	fi
	tmp=$(mktemp -d)
	# (apt's _apt user downloads into it when run as root)
	[ -z "$SUDO" ] && chown _apt "$tmp" 2>/dev/null || true
	# shellcheck disable=SC2046
	if (cd "$tmp" && apt-get download -q $(printf '%s:arm64 ' $A64DEBS) >/dev/null); then
		$SUDO mkdir -p "$A64ROOT"
		for f in "$tmp"/*.deb; do
			$SUDO dpkg-deb -x "$f" "$A64ROOT"
		done
	else
		echo "install-deps: could not fetch the arm64 libraries: make aarch64 builds the runtime alone" >&2
	fi
	rm -rf "$tmp"
fi

# a static qemu-aarch64 for the a64_record case (doc/testing.md): it
# registers it as the binfmt_misc handler of aarch64 programs in a private
# user namespace, where the aarch64 build of calltrace records by exec.
# Debian's qemu-user-static conflicts with qemu-user-binfmt (above): its
# qemu-aarch64-static alone is unpacked into CALLTRACE_QEMU_STATIC_ROOT
# (13 MB of a 63 MB download); without it a64_record is skipped, saying so
QSROOT=${CALLTRACE_QEMU_STATIC_ROOT:-/opt/calltrace-qemu}
if [ "${CHECK_AARCH64:-1}" != 0 ] && [ ! -x "$QSROOT/usr/bin/qemu-aarch64-static" ]; then
	echo "install-deps: qemu-aarch64-static into $QSROOT" >&2
	SUDO=""
	[ "$(id -u)" -ne 0 ] && SUDO=sudo
	tmp=$(mktemp -d)
	[ -z "$SUDO" ] && chown _apt "$tmp" 2>/dev/null || true
	if (cd "$tmp" && apt-get download -q qemu-user-static >/dev/null); then
		$SUDO mkdir -p "$QSROOT"
		dpkg-deb --fsys-tarfile "$tmp"/qemu-user-static_*.deb |
			$SUDO tar -x -C "$QSROOT" ./usr/bin/qemu-aarch64-static
	else
		echo "install-deps: could not fetch qemu-user-static: a64_record is skipped" >&2
	fi
	rm -rf "$tmp"
fi

# the HTML report's JavaScript (d3, d3-flame-graph), the browser tests'
# driver (playwright-core) and speedscope (tests/e2e/nest_speedscope.sh
# loads the chrome export in it), as web/package-lock.json pins them
WEB=$(cd "$(dirname "$0")/../web" && pwd)
if [ ! -f "$WEB/node_modules/d3-flame-graph/package.json" ] ||
   [ ! -f "$WEB/node_modules/d3/package.json" ] ||
   [ ! -f "$WEB/node_modules/playwright-core/package.json" ] ||
   [ ! -f "$WEB/node_modules/speedscope/package.json" ] ||
   [ ! -f "$WEB/node_modules/mermaid/dist/mermaid.min.js" ] ||
   [ "$WEB/package-lock.json" -nt "$WEB/node_modules/.package-lock.json" ]; then
	echo "install-deps: npm ci in $WEB" >&2
	(cd "$WEB" && npm ci --no-audit --no-fund --loglevel=error)
fi
