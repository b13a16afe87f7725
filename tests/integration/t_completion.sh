#!/bin/bash
# The bash completion (completion/ioprobe.bash): options with one and two dashes and unique
# prefixes, value hints (engines, sizes, times, -I formats, --iostat devices), the target
# (directories, files, block devices under /dev), and every option of `ioprobe -h` known with
# the right argument kind. The completion function is called directly with COMP_WORDS split
# the way readline splits them (at = and :), without and with bash-completion's helpers,
# then once through a real interactive bash in tmux (if tmux is installed).
# shellcheck disable=SC2016,SC2317 # eval'd single-quoted checks; functions called by check
. "$(dirname "$0")/lib.sh"

require_cmd bash
COMPLETION=$SRCDIR/completion/ioprobe.bash
[ -f "$COMPLETION" ] || { RC=missing; fail "completion exists at $COMPLETION"; finish; }

# shellcheck source=../../completion/ioprobe.bash
. "$COMPLETION" 2>"$ERR"
RC=$?
check "sources without errors" test "$RC" = 0 -a ! -s "$ERR"
check "registers _ioprobe for ioprobe" eval 'complete -p ioprobe | grep -q -- "-F _ioprobe"'

# comp WORD...: complete the last WORD of "ioprobe WORD..." as bash would (words split at
# the COMP_WORDBREAKS characters = and :), with the cursor at the end; the replies, one per
# line, go to $OUT.
comp() {
	local line="ioprobe" w
	for w in "$@"; do line+=" $w"; done
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMP_WORDS=(ioprobe)
	for w in "$@"; do
		# readline's split: a run of = or : is a word of its own
		while [[ $w =~ ^([^=:]*)([=:]+)(.*)$ ]]; do
			[ -n "${BASH_REMATCH[1]}" ] && COMP_WORDS+=("${BASH_REMATCH[1]}")
			COMP_WORDS+=("${BASH_REMATCH[2]}")
			w=${BASH_REMATCH[3]}
			[ -n "$w" ] || continue 2
		done
		COMP_WORDS+=("$w")
	done
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_ioprobe ioprobe "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>"$ERR"
	RC=$?
	printf '%s\n' "${COMPREPLY[@]}" >"$OUT"
}
# offers WORD...: every WORD is among the replies; offers_only: and nothing else.
offers() {
	local w
	for w in "$@"; do grep -qxF -- "$w" "$OUT" || return 1; done
	[ "$RC" = 0 ] && [ ! -s "$ERR" ]
}
offers_only() { offers "$@" && [ "$(grep -c . "$OUT")" = "$#" ]; }
offers_nothing() { [ "$RC" = 0 ] && [ ! -s "$ERR" ] && ! grep -q . "$OUT"; }

WORK=$T_TMP/work
mkdir -p "$WORK/target.dir" && : >"$WORK/target.file"
cd "$WORK" || exit 1

basic_checks() {
	local tag=$1
	comp -cou
	check "$tag: -cou offers -count" offers_only -count
	comp --eng
	check "$tag: --eng offers --engine" offers_only --engine
	comp -eng
	check "$tag: -eng offers -engine" offers_only -engine
	comp --engine=
	check "$tag: --engine= offers the engines" offers_only sync libaio io_uring null
	comp --engine=io
	check "$tag: --engine=io offers io_uring" offers_only io_uring
	comp --engine ""
	check "$tag: --engine <TAB> offers the engines" offers_only sync libaio io_uring null
	comp -engine ""
	check "$tag: -engine <TAB> offers the engines" offers_only sync libaio io_uring null
	comp --eng ""
	check "$tag: a prefix (--eng <TAB>) offers the engines" offers_only sync libaio io_uring null
	comp --engine=null:
	check "$tag: --engine=null: offers null times" offers 1ms
	comp -s ""
	check "$tag: -s <TAB> offers 4k 64k 1m" offers_only 4k 64k 1m
	comp --size=6
	check "$tag: --size=6 offers 64k" offers_only 64k
	comp -i ""
	check "$tag: -i <TAB> offers 1s 100ms 10ms 0" offers_only 1s 100ms 10ms 0
	comp -qc ""
	check "$tag: a bundle (-qc <TAB>) offers counts" offers 10 100
	comp -c5 ""
	check "$tag: -c5 <TAB> (value attached) offers the target" offers target.dir target.file
	comp -I
	check "$tag: -I offers -I%T" offers -I -I%T
	comp --time=
	check "$tag: --time= offers %T" offers %T
	comp ""
	check "$tag: the target offers a directory and a file" offers target.dir target.file
	comp "$T_TMP/wo"
	check "$tag: the target offers a temp dir by path" offers_only "$T_TMP/work"
	comp -c 3 ""
	check "$tag: the target after -c 3" offers target.dir target.file
	comp target.dir ""
	check "$tag: no second target" offers_nothing
	comp -- -
	check "$tag: after -- no options" offers_nothing
}
basic_checks plain

# Block devices under /dev (whatever this machine has), never character devices.
BLK=$(find /dev -maxdepth 1 -type b 2>/dev/null | sort | head -1)
if [ -n "$BLK" ]; then
	comp "${BLK%?}"
	check "block device $BLK offered" offers "$BLK"
else
	echo "(no block device under /dev here: block device completion not checked)"
fi
comp /dev/nul
check "character device /dev/null not offered" offers_nothing
comp /dev/
check "/dev/ offers no character devices" eval '! grep -qx /dev/null "$OUT" && ! grep -qx /dev/zero "$OUT"'

# --iostat=: device names as in /proc/diskstats.
if [ -r /proc/diskstats ] && DEV=$(awk 'NR == 1 { print $3 }' /proc/diskstats) && [ -n "$DEV" ]; then
	comp "--iostat=${DEV%?}"
	check "--iostat= offers $DEV" offers "$DEV"
	comp "--iostat=$DEV,"
	check "--iostat=$DEV, offers a second device" offers "$DEV,$DEV"
fi

# --qualify: the built-in profile db, and files (a profile file).
comp --qualify ""
check "--qualify offers db" offers db
comp --qualify=
check "--qualify= offers db" offers db

# --sweep across sizes and depths: -Q offers auto and a list; --yes only after two dashes
# (after one, -yes is ioping's -y -e s).
comp -Q ""
check "-Q offers auto and 1,4" eval 'offers auto && offers 1,4'
comp --best-aqu ""
check "--best-aqu offers 1" offers 1
comp --ye
check "--ye offers --yes" offers --yes
comp -ye
check "-ye does not offer -yes" eval '! offers -yes'

# Every option of the usage text: its short letter and its long name with one and two dashes
# are offered, and the completion knows whether it takes an argument (the next word then
# gets value hints, never the target).
probe -h
check "ioprobe -h exits 0" rc_is 0
OPTS=$T_TMP/opts
# usage lines look like "      -c, -count <count>   ..." or "          -engine <name> ..."
awk '$1 ~ /^-[A-Za-z],$/ && $2 ~ /^-[a-z]/ { print substr($1, 2, 1), substr($2, 2), ($3 ~ /^</) ? "arg" : "-"; next }
     $1 ~ /^-[a-z][a-z-]+(\[.*)?$/ { sub(/\[.*/, "", $1); print "-", substr($1, 2), ($2 ~ /^</) ? "arg" : "-" }' \
	"$OUT" >"$OPTS"
N_OPTS=$(wc -l <"$OPTS")
check "usage lists options ($N_OPTS found)" test "$N_OPTS" -ge 30
unknown=()
wrong_arg=()
while read -r letter name arg; do
	comp "--$name"
	offers "--$name" || unknown+=("--$name")
	comp "-$name"
	offers "-$name" || unknown+=("-$name")
	if [ "$letter" != - ]; then
		comp "-$letter"
		offers "-$letter" || unknown+=("-$letter")
	fi
	comp "--$name" ""
	if [ "$arg" = arg ] && { [ "$name" = prometheus ] || [ "$name" = qualify ] ||
		[ "$name" = record ] || [ "$name" = replay ] || [ "$name" = report ] ||
		[ "$name" = web-config ]; }; then
		: # its argument is a path (FILE.prom, a profile file, a recording, a report, a web
		  # configuration): directories are fine
	elif [ "$arg" = arg ]; then
		grep -qx target.dir "$OUT" && wrong_arg+=("--$name (takes an argument)")
	else
		grep -qx target.dir "$OUT" || wrong_arg+=("--$name (takes no argument)")
	fi
done <"$OPTS"
RC="${unknown[*]}"
check "every option of ioprobe -h is offered (${#unknown[@]} missing: ${unknown[*]})" test "${#unknown[@]}" = 0
RC="${wrong_arg[*]}"
check "every option's argument is known (${#wrong_arg[@]} wrong: ${wrong_arg[*]})" test "${#wrong_arg[@]}" = 0

# The same with bash-completion's helpers loaded (its _filedir completes the target).
BC=/usr/share/bash-completion/bash_completion
if [ -r "$BC" ]; then
	set +u
	# shellcheck disable=SC1090
	. "$BC" >/dev/null 2>&1
	# shellcheck source=../../completion/ioprobe.bash
	. "$COMPLETION"
	set -u
	basic_checks bash-completion
else
	echo "(bash-completion not installed: checked without its helpers only)"
fi

# One real <TAB><TAB> through readline in an interactive bash, inside tmux.
if command -v tmux >/dev/null 2>&1; then
	SOCK=ioprobe-comp-$$
	TM() { tmux -L "$SOCK" "$@"; }
	at_exit 'TM kill-server 2>/dev/null'
	PANE=$T_TMP/pane
	RCFILE=$T_TMP/bashrc
	printf 'PS1="$ "\nbind "set bell-style none"\nbind "set show-all-if-ambiguous off"\n. %q\n' \
		"$COMPLETION" >"$RCFILE"
	TM new-session -d -s c -x 150 -y 20 "env -i TERM=screen HOME=$T_TMP PATH=/usr/bin:/bin bash --noprofile --rcfile $RCFILE -i"
	TM send-keys -t c 'ioprobe --engine=' Tab Tab
	for _ in $(seq 250); do
		TM capture-pane -p -t c >"$PANE" 2>/dev/null
		grep -q 'io_uring' "$PANE" && grep -q 'libaio' "$PANE" && break
		sleep 0.02
	done
	OUT=$PANE
	check "readline: --engine=<TAB><TAB> lists the engines" \
		eval 'grep -q io_uring "$PANE" && grep -q libaio "$PANE" && grep -qw sync "$PANE" && grep -qw null "$PANE"'
	TM send-keys -t c C-u 'ioprobe -cou' Tab
	for _ in $(seq 250); do
		TM capture-pane -p -t c >"$PANE" 2>/dev/null
		grep -q -- 'ioprobe -count' "$PANE" && break
		sleep 0.02
	done
	check "readline: -cou<TAB> becomes -count" grep -q -- '\$ ioprobe -count' "$PANE"
	TM kill-server 2>/dev/null
else
	echo "(tmux not installed: no readline check)"
fi

finish
