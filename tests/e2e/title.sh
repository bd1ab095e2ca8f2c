# title: a program that rewrites its argv memory with a short title (as
# redis does) and forks: info's command, each process's argv and the HTML
# report's title are the command it was started with (the forked child's
# argv was the title and 27 '' read from /proc/self/cmdline after the
# rewrite; the linked-in runtime's info command likewise, read at exit).
# variants: all
# front-ends: few
LIBDIR=$(dirname "$CT")
NEEDED=
[ "$FRONT" = patch ] && NEEDED=-Wl,--no-as-needed
build title "$E2E/title.c"
build title_linked "$E2E/title.c" $NEEDED -L"$LIBDIR" -lcalltrace -Wl,-rpath,"$LIBDIR"

# show D HOW: recording D's command line in info, each process's argv and
# the HTML report's title
show() {
	section "$2: info's command and each process's argv"
	ct info "$1" | sed -n 's/^\(command:\) */\1 /p; s/^  argv: */argv: /p' | add
	section "$2: the HTML report's title"
	ct export "$1" --format=html -o "$W/$1.html"
	grep -o '<title>[^<]*</title>' "$W/$1.html" | add
}

record d ./title one 'two words' three four five six seven
want_rc "record ./title" $RC 0 "$W/d.err"
show d "record"

guard env CALLTRACE_DIR="$W/l" ./title_linked one 'two words' three four five six seven \
	>"$W/l.out" 2>"$W/l.err"
want_rc "CALLTRACE_DIR=l ./title_linked" $RC 0 "$W/l.err"
show l "linked in"
