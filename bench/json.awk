# json.awk: sorted "dotted.key<TAB>value" lines -> one nested JSON object.
# A repeated key keeps its last value.  Numbers stay numbers; the rest are
# strings.  Used by bench/run.sh.
function esc(s) {
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s)
	return "\"" s "\""
}
function val(v) {
	if (v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v !~ /^-?0[0-9]/) return v
	return esc(v)
}
function emit(key, v,    n, p, i, j, ind) {
	n = split(key, p, ".")
	# close the objects that this key leaves
	for (j = 1; j <= depth && j < n && p[j] == cur[j]; j++) ;
	for (i = depth; i >= j; i--) {
		ind = ""; for (k = 0; k < i; k++) ind = ind "  "
		printf "\n%s}", ind
	}
	depth = j - 1
	# open the new ones
	for (i = j; i < n; i++) {
		ind = ""; for (k = 0; k < i; k++) ind = ind "  "
		printf "%s\n%s%s: {", (first[i - 1] ? "," : ""), ind, esc(p[i])
		first[i - 1] = 1; first[i] = 0; cur[i] = p[i]; depth = i
	}
	ind = ""; for (k = 0; k < n; k++) ind = ind "  "
	printf "%s\n%s%s: %s", (first[n - 1] ? "," : ""), ind, esc(p[n]), val(v)
	first[n - 1] = 1
}
BEGIN { printf "{"; depth = 0; first[0] = 0; have = 0 }
{
	if (have && $1 != pk) emit(pk, pv)
	pk = $1; pv = $2; have = 1
}
END {
	if (have) emit(pk, pv)
	for (i = depth; i >= 1; i--) {
		ind = ""; for (k = 0; k < i; k++) ind = ind "  "
		printf "\n%s}", ind
	}
	printf "\n}\n"
}
