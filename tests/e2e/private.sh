# Recordings are private: the data directory and sym/ are 0700, the event
# streams, info, args.spec and the symbol tables 0600, whatever the umask
# (captured strings can be secrets); a symbol table from the per-user
# cache that is not private itself is copied, not linked.  (The .proc
# files are the runtime's: not checked here.)
# variants: one
# a build whose hooks see registers, for -A (args.spec)
CFLAGS="-g -O0 -pg -mfentry"
build faults "$E2E/faults.c" -I"$TOP/include"
XDG_CACHE_HOME=$W/cache
export XDG_CACHE_HOME

# modes D: "MODE TYPE NAME" for D and everything in it but .proc files,
# build-ids and numbers in names as ID and N, each line once
modes() {
	(cd "$W" && find "$1" ! -name '*.proc' -exec stat -c '%a %F %n' {} + |
		sed 's/regular file/file/' |
		awk '{ n = $3; gsub(/[0-9a-f][0-9a-f][0-9a-f][0-9a-f]+\.sym/, "ID.sym", n)
		       gsub(/[0-9]+/, "N", n); print $1, $2, n }' | LC_ALL=C sort -u -k3)
}

section "umask 0: every file and directory private"
(umask 0 && record d -A 'leaf@arg1/d' ./faults calls 3)
want_rc "record" $? 0 "$W/d.err"
modes d | add
modes d | awk '($2 == "directory" && $1 != 700) || ($2 != "directory" && $1 != 600) {
	print "not private: " $0 }' | add
[ -f "$W/d/args.spec" ] || fail "no args.spec"

section "from a cache whose files are not private: copies, private"
find "$W/cache" -type f -exec chmod 644 {} +
(umask 0 && record d ./faults calls 3)
want_rc "record (cached symbols)" $? 0 "$W/d.err"
modes d | awk '($2 == "directory" && $1 != 700) || ($2 != "directory" && $1 != 600) {
	print "not private: " $0 }' | add
n=$(find "$W/d/sym" -type f -links +1 | wc -l)
echo "sym files linked to the cache: $n" | add

section "from a private cache: linked (the cache still saves the work)"
find "$W/cache" -type f -name '*.sym' -exec chmod 600 {} +
record d ./faults calls 3
want_rc "record (private cached symbols)" $RC 0 "$W/d.err"
[ "$(find "$W/d/sym" -type f -links +1 | wc -l)" -gt 0 ] && echo "sym files linked to the cache: some" | add
