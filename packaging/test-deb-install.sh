#!/bin/bash
# A fresh install of the built Debian package on this machine, checked the way a stock Debian
# host would use it, then purged.
#
# Usage: packaging/test-deb-install.sh [build-deb/ioprobe_*.deb]   (root; default: the newest
# ioprobe_*.deb in build-deb/)
#
# 1. The package must not be installed already. A user "ioprobe" left by an earlier run (the
#    integration tests create it with systemd-sysusers) is removed first when no package owns it
#    and no process runs as it, so the install really creates it.
# 2. apt-get installs the .deb with its dependencies; the postinst (dh_installsysusers) must
#    create the system user ioprobe, a member of group disk, with no login shell.
# 3. The installed files: binary, man page, units, sysusers file, rules, rules tests, dashboard,
#    completions; the installed unit passes systemd-analyze verify (with the installed
#    /usr/bin/ioprobe and man page) and its exposure score stays <= 2.5.
# 4. The installed unit's exact ExecStart, with its Environment= default options, run as
#    systemd would run it (no systemd as PID 1 here): user and group ioprobe, supplementary
#    group disk, no capability, no new privileges, its StateDirectory created as systemd does
#    (/var/lib/ioprobe, owned by the user, mode 0755), against a loop device whose node is
#    root:disk 0660 as udev leaves it. A short -w is appended so the run ends. The textfile must
#    appear in the state directory with a count.
# 5. dpkg --purge removes the binary and the units; what the test created is removed.
# Prints one line per check and ends with "N passed, N failed"; exit 0 only if all passed,
# 77 when it cannot run here (not root, no apt-get/losetup/setpriv).
set -u
cd "$(dirname "$0")/.."

[ "$(id -u)" = 0 ] || { echo "test-deb-install.sh: needs root (it installs a package)"; exit 77; }
for c in apt-get dpkg losetup setpriv systemd-analyze systemd-escape; do
	command -v "$c" >/dev/null 2>&1 || { echo "test-deb-install.sh: needs $c"; exit 77; }
done

DEB=${1:-$(ls -t build-deb/ioprobe_*.deb 2>/dev/null | head -1)}
[ -f "$DEB" ] || { echo "test-deb-install.sh: no package (build it with packaging/build-deb.sh)"; exit 1; }
DEB=$(realpath "$DEB")

passed=0
failed=0
check() { # NAME COMMAND...
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then
		echo "ok   $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name"
		failed=$((failed + 1))
	fi
}

if dpkg-query -W -f='${Status}' ioprobe 2>/dev/null | grep -q 'install ok installed'; then
	echo "test-deb-install.sh: ioprobe is installed already; not touching it"
	exit 1
fi

TMP=$(mktemp -d /tmp/ioprobe-debtest.XXXXXX)
LOOP=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	if dpkg-query -W -f='${Status}' ioprobe 2>/dev/null | grep -q 'install ok'; then
		dpkg --purge ioprobe >/dev/null 2>&1
	fi
	rm -f /var/lib/ioprobe/ioprobe-*.prom
	rmdir /var/lib/ioprobe 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# 1. a machine without the user, unless something else owns or uses it
if id ioprobe >/dev/null 2>&1; then
	if [ -z "$(pgrep -u ioprobe)" ]; then
		userdel ioprobe 2>/dev/null
		getent group ioprobe >/dev/null && groupdel ioprobe 2>/dev/null
	fi
fi
check "before the install: no user ioprobe" eval '! id ioprobe'

# 2. install with its dependencies, as an operator would
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "$DEB" >"$TMP/install.log" 2>&1
rc=$?
check "apt-get install ./ioprobe.deb: exit 0" [ "$rc" = 0 ]
[ "$rc" = 0 ] || tail -20 "$TMP/install.log"
check "postinst created the system user ioprobe" id ioprobe
check "user ioprobe is a member of group disk" eval 'id -nG ioprobe | grep -qw disk'
check "user ioprobe is a system user (uid < 1000)" eval '[ "$(id -u ioprobe)" -lt 1000 ]'
check "user ioprobe has no login shell" \
	eval 'getent passwd ioprobe | cut -d: -f7 | grep -Eq "/(nologin|false)$"'

# 3. the installed files
for f in /usr/bin/ioprobe /usr/share/man/man1/ioprobe.1.gz \
	/lib/systemd/system/ioprobe-exporter@.service /lib/systemd/system/ioprobe-exporter@.socket \
	/usr/lib/sysusers.d/ioprobe.conf /usr/share/ioprobe/ioprobe-rules.yml \
	/usr/share/ioprobe/ioprobe-rules.test.yml /usr/share/ioprobe/ioprobe-dashboard.json \
	/usr/share/bash-completion/completions/ioprobe; do
	check "installed: $f" [ -f "$f" ]
done
check "ioprobe --version runs" /usr/bin/ioprobe --version
UNIT=/lib/systemd/system/ioprobe-exporter@.service
INST=ioprobe-exporter@$(systemd-escape --path /dev/sda).service
systemd-analyze verify "$INST" >"$TMP/verify.out" 2>&1
rc=$?
check "systemd-analyze verify $INST (installed): exit 0, no warning" \
	eval '[ "$rc" = 0 ] && ! [ -s "$TMP/verify.out" ]'
[ -s "$TMP/verify.out" ] && cat "$TMP/verify.out"
score=$(systemd-analyze security --offline=true "$INST" 2>/dev/null |
	sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')
check "systemd-analyze security (installed): exposure ${score:-?} <= 2.5" \
	awk -v s="${score:-99}" 'BEGIN { exit !(s <= 2.5) }'

# 4. the installed unit's ExecStart as systemd runs it
truncate -s 16M "$TMP/disk.img"
LOOP=$(losetup -f --show "$TMP/disk.img")
chgrp disk "$LOOP" && chmod 0660 "$LOOP"
install -d -o ioprobe -g ioprobe -m 0755 /var/lib/ioprobe # StateDirectory=, StateDirectoryMode=
inst=$(systemd-escape --path "$LOOP")
opts=$(sed -n 's/^Environment="IOPROBE_OPTS=\(.*\)"$/\1/p' "$UNIT")
opts=${opts//%i/$inst}
exec_line=$(sed -n 's/^ExecStart=//p' "$UNIT")
exec_line=${exec_line//\$IOPROBE_OPTS/$opts}
exec_line=${exec_line//%f/$LOOP}
user=$(sed -n 's/^User=//p' "$UNIT")
group=$(sed -n 's/^Group=//p' "$UNIT")
groups=$(sed -n 's/^SupplementaryGroups=//p' "$UNIT")
check "the unit runs as ioprobe:ioprobe with group disk" \
	[ "$user:$group:$groups" = ioprobe:ioprobe:disk ]
# shellcheck disable=SC2086 # the ExecStart line is split into words as systemd splits it
setpriv --reuid="$user" --regid="$group" --groups="$groups" --no-new-privs \
	--inh-caps=-all --bounding-set=-all $exec_line -i 0.2 -w 2 >"$TMP/run.out" 2>&1
rc=$?
check "the installed ExecStart as the service user on $LOOP: exit 0" [ "$rc" = 0 ]
[ "$rc" = 0 ] || cat "$TMP/run.out"
PROM=/var/lib/ioprobe/ioprobe-$inst.prom
check "the textfile is in the state directory, with requests counted" \
	grep -q '^ioprobe_request_duration_seconds_count{.*} [1-9]' "$PROM"
check "the textfile belongs to the service user" eval '[ "$(stat -c %U "$PROM")" = ioprobe ]'

# 5. purge
dpkg --purge ioprobe >"$TMP/purge.log" 2>&1
rc=$?
check "dpkg --purge ioprobe: exit 0" [ "$rc" = 0 ]
check "purged: the binary and the unit are gone" eval '! [ -e /usr/bin/ioprobe ] && ! [ -e "$UNIT" ]'

echo "test-deb-install.sh: $passed passed, $failed failed"
[ "$failed" = 0 ]
