#!/bin/bash
# The systemd unit packaging/systemd/ioprobe-exporter@.service: systemd-analyze verify
# (syntax, the ExecStart binary, the man page in Documentation=) with no warning,
# its hardening score, the instance naming, and meson installing it.
. "$(dirname "$0")/lib.sh"

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
	'ReadWritePaths=-/var/lib/prometheus/node-exporter'; do
	check "unit has $key" grep -qx -- "$key" "$UNIT"
done
score=$(systemd-analyze security --offline=true "$U/$INST" 2>/dev/null |
	sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')
check "systemd-analyze security: exposure ${score:-?} <= 3.0" \
	awk -v s="${score:-99}" 'BEGIN { exit !(s <= 3.0) }'

# meson installs it into systemd's unit directory
BUILD=$(dirname "$IOPROBE")
if [ -f "$BUILD/build.ninja" ]; then
	meson install -C "$BUILD" --no-rebuild --quiet --destdir "$T_TMP/inst" >"$OUT" 2>"$ERR"
	RC=$?
	check "meson install: exit 0" rc_is 0
	check "meson install: the unit is installed" \
		[ -n "$(find "$T_TMP/inst" -path '*/systemd/system/ioprobe-exporter@.service')" ]
fi

finish
