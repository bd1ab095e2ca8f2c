# What the runtime could not trace, counted in the doorbell (enum
# ct_untraced), is named in record's summary and in info: the program bumps
# the counters itself, as the runtime does, so that this tests record's
# side alone.  A count of what is a loss means no "Nothing lost".
# variants: one
# aarch64: yes patch
build faults "$E2E/faults.c" -I"$TOP/include"

record d ./faults untraced
want_rc "record ./faults untraced" $RC 0 "$W/d.err"
section "summary"
grep '^calltrace: exit' "$W/d.err" | sed 's/^.*in [^ ]* bytes, [0-9.]* bytes per event, in [^ ]*\. //' | add
section "info"
grep '^untraced_' "$W/d/info" | add
ct info d | grep '^untraced_' | add
