#!/bin/sh
# bench/setup.sh: get what the benchmark needs and build its real programs.
#
#   sh bench/setup.sh [WORKDIR] [lua|sqlite]   (default bench/work, lua)
#
# Installs missing Debian packages (dpkg-dev for `apt-get source`, time,
# uftrace), adds a deb-src entry for bookworm, and:
#
# lua: fetches the lua5.4 source package into WORKDIR/src, and builds the
# Lua interpreter four times from that source with Lua's own makefile, at
# its default -O2:
#   WORKDIR/lua-plain/src/lua   no extra flags
#   WORKDIR/lua-fi/src/lua      MYCFLAGS=-finstrument-functions
#   WORKDIR/lua-pg/src/lua      MYCFLAGS=-pg MYLDFLAGS=-pg (uftrace's best case)
#   WORKDIR/lua-patch/src/lua   MYCFLAGS=-fpatchable-function-entry=5
#
# sqlite: fetches the sqlite3 source package into WORKDIR/src, applies its
# code patches (not those of Debian's build), generates the amalgamation
# (sqlite3.c, shell.c: upstream's makefile, which needs tclsh) and builds
# the shell twice at -g -O2 (the argument workload, bench/sqlite.sh):
#   WORKDIR/sqlite/sqlite3-plain    no extra flags
#   WORKDIR/sqlite/sqlite3-fentry   -pg -mfentry
#
# Every build product stays under WORKDIR.  Prints why and exits 1 if the
# source cannot be had or built; the benchmark then skips that workload.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
W=${1:-$HERE/work}
WHAT=${2:-lua}
mkdir -p "$W" || exit 1
W=$(cd "$W" && pwd)
LOG=$W/setup-$WHAT.log
: >"$LOG"

say() { echo "setup: $*" >&2; }
fail() { say "$*"; exit 1; }

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
updated=0
apt_update() {
	[ $updated = 1 ] && return 0
	updated=1
	$SUDO apt-get update -q >>"$LOG" 2>&1 || say "apt-get update failed (see $LOG)"
}

# packages: install the missing ones, tolerate failure (reported later)
missing=""
pkgs="dpkg-dev time uftrace gcc make patch"
[ "$WHAT" = sqlite ] && pkgs="$pkgs tcl xz-utils"
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing:$missing"
	apt_update
	$SUDO apt-get install -y -q $missing >>"$LOG" 2>&1 || say "could not install:$missing (see $LOG)"
fi

# fetch_source PACKAGE: the Debian source package into $W/src (once)
fetch_source() {
	ls "$W"/src/"$1"_*.dsc >/dev/null 2>&1 && return 0
	command -v apt-get >/dev/null || fail "no apt-get: not a Debian system"
	command -v dpkg-source >/dev/null || fail "dpkg-dev is not installed (needed by apt-get source)"
	SRC=/etc/apt/sources.list.d/calltrace-deb-src.sources
	if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ &&
		! grep -qs '^deb-src' /etc/apt/sources.list; then
		say "adding $SRC"
		printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' \
			'Suites: bookworm' 'Components: main' \
			'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
			$SUDO tee "$SRC" >/dev/null || fail "cannot write $SRC"
		updated=0
	fi
	apt_update
	mkdir -p "$W/src"
	say "apt-get source $1"
	(cd "$W/src" && apt-get source "$1") >>"$LOG" 2>&1 ||
		fail "apt-get source $1 failed: $(grep -E '^(E|W):' "$LOG" | tail -1)"
}

# ---- sqlite: the shell, from the amalgamation made from Debian's source
if [ "$WHAT" = sqlite ]; then
	STAMP="sqlite3 plain/-pg -mfentry -g -O2 v1"
	S=$W/sqlite
	if [ -x "$S/sqlite3-plain" ] && [ -x "$S/sqlite3-fentry" ] &&
		[ "$(cat "$W/sqlite.stamp" 2>/dev/null)" = "$STAMP" ]; then
		exit 0
	fi
	fetch_source sqlite3
	command -v tclsh >/dev/null || fail "tclsh is missing (package tcl): it makes sqlite's amalgamation"
	ORIG=$(ls "$W"/src/sqlite3_*.orig.tar.* 2>/dev/null | grep -v -- -www | head -1)
	DEBDIR=$(ls -d "$W"/src/sqlite3-*/debian 2>/dev/null | head -1)
	[ -n "$ORIG" ] || fail "no upstream tarball of sqlite3 in $W/src"
	rm -rf "$W/sqlite-tree" "$W/sqlite-gen" "$S" "$W/sqlite.stamp"
	mkdir -p "$W/sqlite-tree" "$W/sqlite-gen" "$S"
	tar -xf "$ORIG" -C "$W/sqlite-tree" --strip-components=1 || fail "cannot unpack $ORIG"
	# the package's fixes to the code (41-*, 42-*, 000N-*: a query
	# optimisation bug, CVEs); not its build changes (02-* to 40-*: libdl,
	# dependencies, hurd, cross builds, linking, its own lempar.c, malloc_
	# usable_size, page size, the amalgamation's configure)
	if [ -n "$DEBDIR" ] && [ -f "$DEBDIR/patches/series" ]; then
		for p in $(grep -v '^#' "$DEBDIR/patches/series"); do
			case $p in 000[0-9]-* | 4[1-9]-*) ;; *) continue ;; esac
			patch -d "$W/sqlite-tree" -p1 -s <"$DEBDIR/patches/$p" >>"$LOG" 2>&1 ||
				say "debian patch $p did not apply (see $LOG)"
		done
	fi
	say "making sqlite's amalgamation"
	(cd "$W/sqlite-gen" && ../sqlite-tree/configure --disable-tcl >>"$LOG" 2>&1 &&
		make -j"$(nproc 2>/dev/null || echo 2)" sqlite3.c shell.c >>"$LOG" 2>&1) ||
		fail "sqlite's amalgamation failed (see $LOG)"
	for b in plain fentry; do
		f=""
		[ $b = fentry ] && f="-pg -mfentry"
		say "building the sqlite3 shell ($b: -g -O2 $f)"
		# shellcheck disable=SC2086 # $f: flags
		gcc -g -O2 $f -DSQLITE_THREADSAFE=1 -o "$S/sqlite3-$b" \
			"$W/sqlite-gen/sqlite3.c" "$W/sqlite-gen/shell.c" -lm -ldl -lpthread >>"$LOG" 2>&1 ||
			fail "sqlite3 build $b failed (see $LOG)"
	done
	echo "$STAMP" >"$W/sqlite.stamp"
	exit 0
fi

# ---- lua
# already built?  (the stamp names the flags, so a change rebuilds)
STAMP="lua5.4 plain/-finstrument-functions/-pg/-fpatchable-function-entry=5 v3"
if [ -x "$W/lua-plain/src/lua" ] && [ -x "$W/lua-fi/src/lua" ] && [ -x "$W/lua-pg/src/lua" ] &&
	[ -x "$W/lua-patch/src/lua" ] &&
	[ "$(cat "$W/lua.stamp" 2>/dev/null)" = "$STAMP" ]; then
	exit 0
fi
fetch_source lua5.4

# Lua's own upstream makefile builds one static executable; Debian's
# 0001-build-system patch switches it to libtool and a shared liblua, which is
# not what we want to time.  So: the upstream tarball of the source package,
# plus the package's patches except the two that only touch the build and
# install paths.
ORIG=$(ls "$W"/src/lua5.4_*.orig.tar.* 2>/dev/null | head -1)
DEBDIR=$(ls -d "$W"/src/lua5.4-*/debian 2>/dev/null | head -1)
[ -n "$ORIG" ] || fail "no upstream tarball in $W/src"
rm -rf "$W/lua-tree" "$W/lua-plain" "$W/lua-fi" "$W/lua-pg" "$W/lua-patch" "$W/lua.stamp"
mkdir -p "$W/lua-tree"
tar -xf "$ORIG" -C "$W/lua-tree" --strip-components=1 || fail "cannot unpack $ORIG"
if [ -n "$DEBDIR" ] && [ -f "$DEBDIR/patches/series" ]; then
	for p in $(grep -v '^#' "$DEBDIR/patches/series"); do
		case $p in *build-system* | *modules-paths*) continue ;; esac
		patch -d "$W/lua-tree" -p1 -s <"$DEBDIR/patches/$p" >>"$LOG" 2>&1 ||
			say "debian patch $p did not apply (see $LOG)"
	done
fi

build() { # dir MYCFLAGS MYLDFLAGS
	cp -r "$W/lua-tree" "$W/$1"
	say "building lua ($1: MYCFLAGS='$2')"
	make -C "$W/$1/src" -j"$(nproc 2>/dev/null || echo 2)" linux-noreadline \
		MYCFLAGS="$2" MYLDFLAGS="$3" >>"$LOG" 2>&1 || fail "lua build $1 failed (see $LOG)"
}
build lua-plain "" ""
build lua-fi "-finstrument-functions" ""
build lua-pg "-pg" "-pg"
build lua-patch "-fpatchable-function-entry=5" ""
echo "$STAMP" >"$W/lua.stamp"
exit 0
