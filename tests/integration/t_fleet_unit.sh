#!/bin/bash
# The systemd units packaging/systemd/ioprobe-exporter@.service and .socket: systemd-analyze
# verify (syntax, the ExecStart binary, the man page in Documentation=) with no warning, the
# service's hardening score, the instance naming, the sysusers file creating its user, the
# unit's exact ExecStart run as that user with no capability (setpriv) on a loop device and a
# directory, socket activation (--listen systemd), and meson installing all three.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd systemd-analyze
require_cmd systemd-escape
UNIT=$SRCDIR/packaging/systemd/ioprobe-exporter@.service
check "the unit exists" [ -f "$UNIT" ]

# verify a copy whose ExecStart is the binary under test, as an instance for /dev/sda
U=$T_TMP/units
mkdir -p "$U" "$T_TMP/man/man1"
cp "$SRCDIR/man/ioprobe.1" "$T_TMP/man/man1/"
sed "s|/usr/bin/ioprobe|$IOPROBE|" "$UNIT" >"$U/ioprobe-exporter@.service"
INST=ioprobe-exporter@$(systemd-escape --path /dev/sda).service
ln -s ioprobe-exporter@.service "$U/$INST"
MANPATH=$T_TMP/man systemd-analyze verify "$U/$INST" >"$OUT" 2>"$ERR"
RC=$?
check "systemd-analyze verify: exit 0" rc_is 0
check "systemd-analyze verify: no warning" err_empty
check "instance name: $INST" [ "$INST" = ioprobe-exporter@dev-sda.service ]
check "instance round trip: %f gives the path back" \
	[ "$(systemd-escape --unescape --path dev-sda)" = /dev/sda ]
check "ExecStart takes the unescaped path (%f) and the options" \
	grep -qx 'ExecStart=/usr/bin/ioprobe -q $IOPROBE_OPTS %f' "$UNIT"
for key in 'NoNewPrivileges=yes' 'ProtectSystem=strict' 'CapabilityBoundingSet=' \
	'SupplementaryGroups=disk' 'EnvironmentFile=-/etc/ioprobe/exporter-%i.conf' \
	'User=ioprobe' 'StateDirectory=ioprobe' 'ReadWritePaths=-%f' 'Restart=on-failure' \
	'RestartSec=30s' 'StartLimitBurst=5'; do
	check "unit has $key" grep -qx -- "$key" "$UNIT"
done
check "the default textfile is in the unit's own state directory" \
	grep -q '^Environment="IOPROBE_OPTS=.*--prometheus /var/lib/ioprobe/ioprobe-%i.prom"$' "$UNIT"
score=$(systemd-analyze security --offline=true "$U/$INST" 2>/dev/null |
	sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')
check "systemd-analyze security: exposure ${score:-?} <= 2.5" \
	awk -v s="${score:-99}" 'BEGIN { exit !(s <= 2.5) }'

# the socket unit: verified beside its service
SOCK=$SRCDIR/packaging/systemd/ioprobe-exporter@.socket
cp "$SOCK" "$U/"
ln -s ioprobe-exporter@.socket "$U/ioprobe-exporter@dev-sda.socket"
MANPATH=$T_TMP/man systemd-analyze verify "$U/ioprobe-exporter@dev-sda.socket" >"$OUT" 2>"$ERR"
RC=$?
check "socket unit: systemd-analyze verify exit 0, no warning" eval 'rc_is 0 && err_empty'
check "socket unit: ListenStream on 127.0.0.1:9101, Accept=no" \
	eval 'grep -qx "ListenStream=127.0.0.1:9101" "$SOCK" && grep -qx "Accept=no" "$SOCK"'

# socket activation: systemd-socket-activate passes a listening socket as systemd does
if command -v systemd-socket-activate >/dev/null 2>&1 && command -v curl >/dev/null 2>&1; then
	PORT=$(free_port)
	systemd-socket-activate -l "127.0.0.1:$PORT" "$IOPROBE" --listen systemd -q -i 0.1 -w 4 \
		"$T_TMP" >"$T_TMP/sa.out" 2>&1 &
	SA=$!
	at_exit 'kill $SA 2>/dev/null'
	wait_http "127.0.0.1:$PORT" 5
	curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics" >"$OUT"
	check "--listen systemd: /metrics served on the passed socket" \
		grep -q '^ioprobe_request_duration_seconds_count{' "$OUT"
	wait "$SA"
	probe --listen systemd -c 1 "$T_TMP"
	check "--listen systemd without a passed socket: exit 2, says so" \
		eval 'rc_is 2 && err_has "^ioprobe: --listen systemd: no socket was passed"'
fi

# the sysusers file makes the service's user (root: it is created for real, once)
SYSUSERS=$SRCDIR/packaging/systemd/ioprobe.sysusers
if [ "$(id -u)" = 0 ] && command -v systemd-sysusers >/dev/null 2>&1 &&
	command -v setpriv >/dev/null 2>&1; then
	systemd-sysusers "$SYSUSERS" >"$OUT" 2>"$ERR"
	check "systemd-sysusers: user ioprobe, a member of group disk" \
		eval 'id ioprobe >/dev/null && id -nG ioprobe | grep -qw disk'
	# the unit's ExecStart, its default options with a short run, as the unit runs it: the
	# user, its groups, no capability, no new privileges; the state directory its own
	chmod 0711 "$T_TMP" # the service user reaches its directories below the test's
	STATE=$T_TMP/state
	install -d -o ioprobe -g ioprobe -m 0755 "$STATE"
	opts=$(sed -n 's/^Environment="IOPROBE_OPTS=\(.*\)"$/\1/p' "$UNIT")
	exec_as_unit() { # TARGET INSTANCE EXTRA_OPTS...
		local target=$1 inst=$2 o
		shift 2
		o=${opts//\/var\/lib\/ioprobe/$STATE}
		o=${o//%i/$inst}
		# shellcheck disable=SC2086
		setpriv --reuid=ioprobe --regid=ioprobe --init-groups --no-new-privs \
			--inh-caps=-all --bounding-set=-all \
			"$IOPROBE" -q $o "$@" "$target" >"$OUT" 2>"$ERR"
		RC=$?
		PROM=$STATE/ioprobe-$inst.prom
	}
	LOOP=$(make_loop 16M)
	chgrp disk "$LOOP" && chmod 0660 "$LOOP" # what udev does for a block device
	exec_as_unit "$LOOP" "$(systemd-escape --path "$LOOP")" -i 0.1 -w 1.5
	check "as the unit's user, a loop device: exit 0" rc_is 0
	check "as the unit's user: the textfile in its state directory" \
		grep -q '^ioprobe_request_duration_seconds_count{.*} [1-9]' "$PROM"
	DIR=$T_TMP/dirtarget
	install -d -o ioprobe -g ioprobe "$DIR"
	exec_as_unit "$DIR" "$(systemd-escape --path "$DIR")" -i 0.1 -w 1.5
	check "as the unit's user, a directory target it may write: exit 0" rc_is 0
fi

# meson installs it into systemd's unit directory
BUILD=$(dirname "$IOPROBE")
if [ -f "$BUILD/build.ninja" ]; then
	meson install -C "$BUILD" --no-rebuild --quiet --destdir "$T_TMP/inst" >"$OUT" 2>"$ERR"
	RC=$?
	check "meson install: exit 0" rc_is 0
	check "meson install: the unit is installed" \
		[ -n "$(find "$T_TMP/inst" -path '*/systemd/system/ioprobe-exporter@.service')" ]
	check "meson install: the socket unit is installed" \
		[ -n "$(find "$T_TMP/inst" -path '*/systemd/system/ioprobe-exporter@.socket')" ]
	check "meson install: the sysusers file is installed" \
		[ -n "$(find "$T_TMP/inst" -path '*/sysusers.d/ioprobe.conf')" ]
fi

finish
