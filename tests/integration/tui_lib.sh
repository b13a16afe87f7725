# tmux helpers for the full-screen view's tests (sourced by t_tui*.sh after lib.sh).
# Each test gets its own tmux server (socket ioprobe-test-PID) and one session "t" whose
# shell records the terminal settings before and after ioprobe and its exit status.
PANE=$T_TMP/pane
SOCK=ioprobe-test-$$

TM() { tmux -L "$SOCK" "$@"; }
# stop_server: kill this test's tmux server and wait until it is gone.
stop_server() {
	local pid
	pid=$(TM display -p '#{pid}' 2>/dev/null) || return 0
	TM kill-server 2>/dev/null
	wait_exit "$pid" 10
}
at_exit stop_server

# start W H ENV... -- ARGS...: a fresh 120x40-style session "t" running ioprobe in a shell
# that records the terminal settings before and after, the exit status, then waits.
# T_WRAP (words) goes before the binary: a setpriv or prlimit wrapper.
start() {
	local w=$1 h=$2 envs=()
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	stop_server
	rm -f "$T_TMP/stty.before" "$T_TMP/stty.after" "$ERR"
	LANG=C.UTF-8 TM -u new-session -d -s t -x "$w" -y "$h" \
		"ulimit -c 0; stty -g >$T_TMP/stty.before; env ${envs[*]} ${T_WRAP:-} $IOPROBE $* 2>$ERR; \
echo EXIT=\$?; stty -g >$T_TMP/stty.after; exec sleep 300"
	TM set-option -t t status off >/dev/null
}

cap() { TM capture-pane -p -t t >"$PANE" 2>/dev/null; }
cap_e() { TM capture-pane -p -e -t t >"$PANE" 2>/dev/null; }
in_pane() { grep -Eq -- "$1" "$PANE"; }
# has / lacks REGEX: the pane shows / does not show REGEX, polled for up to 5 s (a capture
# can catch a frame half sent, so nothing is judged on one capture).
has() { wait_for "$1" 5; }
lacks() { wait_gone "$1" 5; }

# wait_for REGEX [SECONDS]: poll the pane (20 ms) until REGEX matches.
wait_for() {
	local re=$1 tries=$(( ${2:-10} * 50 ))
	while [ "$tries" -gt 0 ]; do
		cap
		in_pane "$re" && return 0
		tries=$((tries - 1))
		sleep 0.02
	done
	return 1
}

# wait_gone REGEX [SECONDS]: poll until REGEX no longer matches.
wait_gone() {
	local re=$1 tries=$(( ${2:-10} * 50 ))
	while [ "$tries" -gt 0 ]; do
		cap
		in_pane "$re" || return 0
		tries=$((tries - 1))
		sleep 0.02
	done
	return 1
}

ioprobe_pid() { pgrep -P "$(TM display -p -t t '#{pane_pid}')" -x ioprobe; }
terminal_restored() {
	[ "$(TM display -p -t t '#{alternate_on}')" = 0 ] &&
		[ "$(TM display -p -t t '#{cursor_flag}')" = 1 ] &&
		cmp -s "$T_TMP/stty.before" "$T_TMP/stty.after"
}
