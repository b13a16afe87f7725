#!/bin/bash
# The manual page: it renders without a single troff warning, documents every option
# `ioprobe -h` lists, carries the binary's version, has the standard sections, and
# writes its option dashes as \- (so they render as plain ASCII hyphens).
. "$(dirname "$0")/lib.sh"

require_cmd man

PAGE=$SRCDIR/man/ioprobe.1
[ -f "$PAGE" ] || { RC=missing; fail "man page exists at $PAGE"; finish; }

# render WIDTH: the page as plain text (man -l, no pager), on stdout; troff's and man's
# complaints on stderr. Bold/underline overstrikes are removed, and the Unicode minus
# and hyphen signs some groff setups use for "\-" become ASCII, so greps see "-".
render() {
	env -u MAN_KEEP_FORMATTING -u MANOPT LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH="$1" \
		man -E UTF-8 -l "$PAGE" | sed 's/.\x08//g; s/\xe2\x88\x92/-/g; s/\xe2\x80\x90/-/g'
}

# 1. No warnings: man exits 0 even when troff warns, so stderr must stay empty.
env -u MANOPT LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
	man --warnings -E UTF-8 -l -Tutf8 -Z "$PAGE" >/dev/null 2>"$ERR"
RC=$?
check "renders with exit 0" rc_is 0
check "renders without troff warnings" err_empty

TEXT=$T_TMP/page.txt
render 200 >"$TEXT" 2>"$ERR"
RC=$?
check "plain-text rendering works" test "$RC" = 0 -a -s "$TEXT"
check "plain-text rendering is silent" err_empty

# 2. The standard sections, as headings at column 0.
for sec in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
	check "section $sec" grep -qx -- "$sec" "$TEXT"
done

# 3. The version in .TH (and so in the footer) is the binary's.
probe -v
VERSION=$(sed -n 's/^ioprobe \([0-9][0-9.]*\)$/\1/p' "$OUT")
check "ioprobe -v prints a version" test -n "$VERSION"
VRE=${VERSION//./\\.}
check ".TH carries \"ioprobe $VERSION\"" \
	grep -Eq "^\.TH IOPROBE 1 \"[^\"]+\" \"ioprobe $VRE\"" "$PAGE"
check "footer shows ioprobe $VERSION" grep -Eq "^ioprobe $VRE[[:space:]]" "$TEXT"

# 4. Every option of the usage text has its entry: "-x, --name" (or "-x, -name") in the
# rendered page for options with a letter; for long-only ones the name must be in the
# page and start the tag of a .TP paragraph in the source.
tp_entry() {
	awk -v name="$1" '
		prev ~ /^\.TP/ && $1 ~ /^\.(B|BR|BI)$/ {
			opt = $2
			gsub(/\\-/, "-", opt)   # \- in roff is a plain dash
			if (opt == "--" name || opt == "-" name)
				found = 1
		}
		{ prev = $0 }
		END { exit !found }' "$PAGE"
}
probe -h
check "ioprobe -h exits 0" rc_is 0
OPTS=$T_TMP/opts
# usage lines look like "      -c, -count <count>   ..." or "          -engine <name> ..."
awk '$1 ~ /^-[A-Za-z],$/ && $2 ~ /^-[a-z]/ { print substr($1, 2, 1), substr($2, 2); next }
     $1 ~ /^-[a-z][a-z-]+(\[.*)?$/ { sub(/\[.*/, "", $1); print "-", substr($1, 2) }' \
	"$OUT" >"$OPTS"
N_OPTS=$(wc -l <"$OPTS")
check "usage lists options ($N_OPTS found)" test "$N_OPTS" -ge 30
while read -r letter name; do
	if [ "$letter" = - ]; then
		check "option --$name in the rendered page" \
			grep -Eq -- "(^|[[:space:]])--?$name([[:space:]=[]|$)" "$TEXT"
		check "option --$name has a .TP entry" tp_entry "$name"
	else
		check "option -$letter, --$name documented" \
			grep -Eq -- "(^|[[:space:]])-$letter, --?$name([[:space:]=[]|$)" "$TEXT"
	fi
done <"$OPTS"

# 5. Source hygiene: option dashes are written \- (a bare "-" starting a word renders
# as a typographic hyphen on some setups and breaks copy and paste); no mdoc macros.
# On failure the offending lines are shown as the "stdout" of the check.
grep -nE '(^|[[:space:]([|"])-[-A-Za-z]' "$PAGE" | grep -v '^[0-9]*:\.\\"' >"$OUT"
RC=0
check "option dashes written as \\-" out_empty
grep -nE '^\.(Dd|Dt|Os|Nm|Nd|Sh|Fl|Ar|Op|It|Bl|El)([[:space:]]|$)' "$PAGE" >"$OUT"
check "man(7) macros, not mdoc" out_empty

finish
