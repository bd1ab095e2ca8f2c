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

record d ./title one 'two words' three four five six seven
want_rc "record ./title" $RC 0 "$W/d.err"
section "record: info's command and each process's argv"
ct info d | sed -n 's/^\(command:\) */\1 /p; s/^  argv: */argv: /p' | add
section "record: the HTML report's title"
ct export d --format=html -o "$W/d.html"
grep -o '<title>[^<]*</title>' "$W/d.html" | add

guard env CALLTRACE_DIR="$W/l" ./title_linked one 'two words' three four five six seven \
	>"$W/l.out" 2>"$W/l.err"
want_rc "CALLTRACE_DIR=l ./title_linked" $RC 0 "$W/l.err"
section "linked in: info's command and each process's argv"
ct info l | sed -n 's/^\(command:\) */\1 /p; s/^  argv: */argv: /p' | add
section "linked in: the HTML report's title"
ct export l --format=html -o "$W/l.html"
grep -o '<title>[^<]*</title>' "$W/l.html" | add
