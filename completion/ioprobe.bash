# bash completion for ioprobe(1)                           -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Options with one or two dashes (-count, --count, --count=5), value hints for their
# arguments, and the target: a directory, a file or a block device under /dev.
# Self-contained: works with or without the bash-completion package.

# Every option of `ioprobe -h`: long name, short letter (- for none), argument kind
# (none, or a value hint: count size time seed engine format devices listen promfile
# check checkiops profile aqu; format and devices are optional and must be attached: -I%T,
# --time=%T, --iostat=sda; promfile is a path: --prometheus, --web-config, --record, --replay,
# --report; profile is db or a path). --yes is offered after two dashes only (after one, -yes is
# ioping's -y -e s).
# ioping 1.3's options first, in its order: on an ambiguous prefix they win, as in ioprobe.
__ioprobe_opts=(
	'help h none' 'version v none' 'keep k none' 'quiet q none' 'batch B none'
	'time I format' 'json J none' 'rapid R none' 'linear L none' 'direct D none'
	'cached C none' 'nowait N none' 'hipri H none' 'sync Y none' 'dsync y none'
	'async A none' 'write W none' 'read-write G none' 'size s size' 'work-size S size'
	'work-offset o size' 'count c count' 'work-time w time' 'interval i time'
	'burst b count' 'speed-limit l size' 'rate-limit r count' 'warmup a count'
	'min-time t time' 'max-time T time' 'print-count p count' 'print-interval P time'
	'entropy e seed'
	'uring U none' 'ignore-error E none' 'engine - engine' 'tui X none' 'no-color - none'
	'ascii - none' 'json-lines - none' 'raw-percentiles - none' 'iostat - devices'
	'fio-job - window' 'sweep - rates'
	'depth Q count' 'arrivals - arrivals' 'response - none' 'layers - none'
	'no-layers - none'
	'listen - listen' 'web-config - promfile' 'prometheus - promfile' 'prometheus-period - time'
	'influx - none'
	'check - check' 'check-iops - checkiops' 'check-timeout - time'
	'qualify - profile' 'best-aqu - aqu' 'limit-aqu - aqu' 'yes - none'
	'name - names' 'percentiles - percentiles'
	'record - promfile' 'record-requests - none' 'replay - promfile' 'report - promfile'
)
__ioprobe_n_ioping=33 # the first 33 entries are ioping 1.3's options

# __ioprobe_long NAME: the table entry of a long name or a prefix of one (as ioprobe
# resolves it: exact name, else the only match, else the only ioping match); status 1 if none.
__ioprobe_long() {
	local name=$1 e hit="" hits=0 ihit="" ihits=0 i
	for ((i = 0; i < ${#__ioprobe_opts[@]}; i++)); do
		e=${__ioprobe_opts[i]}
		[[ ${e%% *} == "$name"* ]] || continue
		if [[ ${e%% *} == "$name" ]]; then
			REPLY=$e
			return 0
		fi
		hit=$e
		hits=$((hits + 1))
		if ((i < __ioprobe_n_ioping)); then
			ihit=$e
			ihits=$((ihits + 1))
		fi
	done
	if ((hits == 1)); then
		REPLY=$hit
	elif ((ihits == 1)); then
		REPLY=$ihit
	else
		return 1
	fi
}

# __ioprobe_short LETTER: the table entry of a short option; status 1 if none.
__ioprobe_short() {
	local e r
	for e in "${__ioprobe_opts[@]}"; do
		r=${e#* }
		if [[ ${r%% *} == "$1" && $1 != - ]]; then
			REPLY=$e
			return 0
		fi
	done
	return 1
}

# __ioprobe_takes WORD: when the option word WORD (no "=value") consumes the next word as
# its argument, set REPLY to that option's table entry and return 0.
__ioprobe_takes() {
	local w=$1 name i
	case $w in
	--*=* | -*=*) return 1 ;;
	--?*) name=${w#--} ;;
	-?*) name=${w#-} ;;
	*) return 1 ;;
	esac
	# one dash: a single letter that is a short option stays short (getopt_long_only)
	if [[ $w == --* ]] || ((${#name} > 1)) || ! __ioprobe_short "$name"; then
		if __ioprobe_long "$name"; then
			case ${REPLY##* } in none | format | devices | window | rates) return 1 ;; esac
			return 0
		fi
		[[ $w == --* ]] && return 1
	fi
	# a bundle of short options: the first one with an argument ends it
	for ((i = 0; i < ${#name}; i++)); do
		__ioprobe_short "${name:i:1}" || return 1
		case ${REPLY##* } in
		none) continue ;;
		format | devices | window | rates) return 1 ;;
		esac
		((i == ${#name} - 1)) # else the value is attached (-c5)
		return
	done
	return 1
}

# __ioprobe_values ENTRY WORD: candidates (whole words) for the value WORD of the option
# whose table entry is ENTRY.
__ioprobe_values() {
	local name=${1%% *} word=$2 d head
	case $name in
	size) echo "4k 64k 1m" ;;
	work-size) echo "1m 64m 1g" ;;
	work-offset) echo "0 1m 1g" ;;
	speed-limit) echo "1m 10m 100m" ;;
	interval) echo "1s 100ms 10ms 0" ;;
	work-time) echo "10s 1m 1h" ;;
	min-time) echo "0 10us 100us" ;;
	max-time) echo "10ms 100ms 1s" ;;
	print-interval) echo "1s 10s 1m" ;;
	prometheus-period) echo "10s 15s 1m" ;;
	listen) echo "9101 127.0.0.1:9101 :9101" ;;
	check) echo "10ms,50ms 20ms,100ms" ;;
	check-iops) echo "100,50 1k,500" ;;
	check-timeout) echo "5s 8s 25s" ;;
	count) echo "1 10 100 1k" ;;
	depth) echo "1 4 32 1,4 auto" ;;
	warmup) echo "0 1 10" ;;
	burst) echo "0 10 100" ;;
	print-count) echo "10 100 1k" ;;
	rate-limit) echo "10 100 1k" ;;
	time) echo "%T %FT%T%z %s" ;;
	window) echo "5s 10s 30s 1m" ;;
	rates) echo "auto 50,100,200,400" ;;
	qualify) echo "db" ;;
	arrivals) echo "fixed poisson" ;;
	best-aqu) echo "1 0.9 1.5" ;;
	limit-aqu) echo "4 2 8" ;;
	names) echo "db,log a,b,c" ;;
	percentiles) echo "50,90,99,99.9 50,95,99 50,99,99.9,99.99" ;;
	engine)
		if [[ $word == null:* ]]; then
			echo "null:10us null:100us null:1ms"
		else
			echo "sync libaio io_uring null"
		fi
		;;
	iostat)
		# comma-separated device names as in /proc/diskstats
		head=
		[[ $word == *,* ]] && head=${word%,*},
		[[ -r /proc/diskstats ]] || return 0
		while read -r _ _ d _; do
			printf '%s ' "$head$d"
		done </proc/diskstats
		;;
	esac
}

# __ioprobe_reply WORD CANDIDATE...: add to COMPREPLY the candidates that start with WORD,
# less the part of WORD that readline split off at a COMP_WORDBREAKS character (= and :).
__ioprobe_reply() {
	local word=$1 c i cut=0 breaks=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'}
	shift
	for ((i = 0; i < ${#word}; i++)); do
		c=${word:i:1}
		[[ $c != [[:space:]] && $breaks == *"$c"* ]] && cut=$((i + 1))
	done
	for c in "$@"; do
		[[ $c == "$word"* ]] && COMPREPLY+=("${c:cut}")
	done
	return 0
}

# __ioprobe_target WORD: directories and files; under /dev, block devices and directories.
__ioprobe_target() {
	local word=$1 f
	compopt -o filenames 2>/dev/null
	if [[ $word == /dev/* ]]; then
		while IFS= read -r f; do
			[[ -d $f || -b $f ]] && COMPREPLY+=("$f")
		done < <(compgen -f -- "$word")
		return 0
	fi
	if declare -F _filedir >/dev/null; then
		local cur=$word
		_filedir
	else
		while IFS= read -r f; do
			COMPREPLY+=("$f")
		done < <(compgen -f -- "$word")
	fi
	return 0
}

_ioprobe() {
	local words=() cword=-1 i w join=0
	COMPREPLY=()

	# COMP_WORDS with the words that readline split at = and : glued back together
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 0 && ${#words[@]})) && [[ $w =~ ^[=:]+$ ]]; then
			words[${#words[@]} - 1]+=$w
			join=1
		elif ((join)); then
			words[${#words[@]} - 1]+=$w
			join=0
		else
			words+=("$w")
		fi
		((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
	done
	((cword >= 0)) || cword=$((${#words[@]} - 1))
	local cur=${words[cword]-} prev=
	((cword > 0)) && prev=${words[cword - 1]}

	# the words before: after "--" or a target, no more options and no second target
	local ended=0 targets=0
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		if ((ended)) || [[ $w != -?* ]]; then
			targets=$((targets + 1))
		elif [[ $w == -- ]]; then
			ended=1
		elif __ioprobe_takes "$w"; then
			i=$((i + 1))
		fi
	done

	# the argument of the option before: "-s <TAB>", "--engine <TAB>"
	if ((!ended)) && __ioprobe_takes "$prev"; then
		if [[ ${REPLY##* } == profile ]]; then
			__ioprobe_target "$cur" # --qualify db, or a profile file
			[[ db == "$cur"* ]] && COMPREPLY=(db "${COMPREPLY[@]}")
			return 0
		fi
		if [[ ${REPLY##* } == promfile ]]; then
			__ioprobe_target "$cur" # --prometheus, --record, --replay, --report FILE: any path
			return 0
		fi
		# shellcheck disable=SC2046
		__ioprobe_reply "$cur" $(__ioprobe_values "$REPLY" "$cur")
		return 0
	fi

	if ((!ended)) && [[ $cur == -* && $cur != -- ]]; then
		local e name r c cands=()
		if [[ $cur == -*=* ]]; then
			# --name=value, -name=value (a prefix of the name is fine, as in ioprobe)
			name=${cur%%=*}
			name=${name#-}
			__ioprobe_long "${name#-}" || return 0
			for c in $(__ioprobe_values "$REPLY" "${cur#*=}"); do
				cands+=("${cur%%=*}=$c")
			done
			__ioprobe_reply "$cur" "${cands[@]}"
			return 0
		fi
		for e in "${__ioprobe_opts[@]}"; do
			name=${e%% *}
			r=${e#* }
			r=${r%% *}
			if [[ $cur == --* ]]; then
				cands+=("--$name")
			else
				[[ $r != - ]] && cands+=("-$r")
				[[ $name != yes ]] && cands+=("-$name")
			fi
		done
		# -I takes its format attached: -I%T
		if [[ $cur == -I* ]]; then
			for c in $(__ioprobe_values time ""); do cands+=("-I$c"); done
		fi
		__ioprobe_reply "$cur" "${cands[@]}"
		return 0
	fi

	((targets == 0)) || return 0
	__ioprobe_target "$cur"
}

complete -F _ioprobe ioprobe
