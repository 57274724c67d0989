#!/bin/bash
# make install / uninstall into temporary trees: the file list, an existing
# configuration never overwritten, and the units as systemd sees them
# (systemd-analyze verify, and the security exposure of the service).
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d /var/tmp/ssdt-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

D=$T/dest
make -s install DESTDIR="$D" PREFIX=/usr >"$T/log" 2>&1 || bad "make install: $(tail -3 "$T/log")"
(cd "$D" && find . -type f | sort) >"$T/list"
# the list is one file: the package's check reads it too
cp tests/install/files.txt "$T/want"
if diff -u "$T/want" "$T/list" >"$T/diff"; then ok "installed files"; else
	bad "installed files differ:"; cat "$T/diff"; fi
grep -q '^ExecStart=/usr/sbin/ssdtortured -c /etc/ssdtorture/ssdtortured.conf$' \
    "$D/lib/systemd/system/ssdtortured.service" && ok "ExecStart follows SBINDIR and SYSCONFDIR" ||
    bad "ExecStart: $(grep ExecStart "$D/lib/systemd/system/ssdtortured.service")"

echo "# edited by the operator" >>"$D/etc/ssdtorture/ssdtortured.conf"
make -s install DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
grep -q "edited by the operator" "$D/etc/ssdtorture/ssdtortured.conf" &&
    ok "an existing configuration is kept" || bad "the configuration was overwritten"
make -s uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
left=$(cd "$D" && find . -type f | sort | tr '\n' ' ')
[ "$left" = "./etc/ssdtorture/ssdtortured.conf " ] && ok "uninstall leaves only the configuration" ||
    bad "after uninstall: $left"

# completion: drive names come from a running daemon
B=$T/b
mkdir -p "$B"
printf '[daemon]\nstate_dir = %s/state\nsocket = %s/ctl.sock\n[drive:alpha]\ncheckpoint = off\ndevice = %s/a.img\nsize = 64M\nidle = 1m\ncycles = 1\n' \
    "$B" "$B" "$B" >"$B/c.conf"
daemon/ssdtortured -c "$B/c.conf" >"$B/log" 2>&1 &
DPID=$!
for _ in $(seq 50); do [ -S "$B/ctl.sock" ] && break; sleep 0.1; done
got=$(PATH=$PWD/ctl:$PATH bash -c '
	. ctl/ssdctl.bash
	COMP_WORDS=(ssdctl -s "$1" pause ""); COMP_CWORD=4
	_ssdctl; echo "${COMPREPLY[*]}"
	COMP_WORDS=(ssdctl st); COMP_CWORD=1
	_ssdctl; echo "${COMPREPLY[*]}"' _ "$B/ctl.sock")
kill -TERM "$DPID"; wait "$DPID" 2>/dev/null
[ "$got" = "alpha
status start stop" ] && ok "bash completion: drives and commands" ||
    bad "bash completion gave: $got"

# units whose ExecStart exists on this host, for systemd-analyze
R=$T/real
make -s install PREFIX="$R/usr" SYSCONFDIR="$R/etc" UNITDIR="$R/units" \
    SYSUSERSDIR="$R/sysusers.d" >/dev/null 2>&1
if command -v systemd-analyze >/dev/null; then
	out=$(systemd-analyze verify --man=no "$R/units/ssdtortured.service" \
	    "$R/units/ssdtortured.socket" 2>&1)
	[ $? -eq 0 ] && [ -z "$out" ] && ok "systemd-analyze verify" ||
	    bad "systemd-analyze verify: $out"
	exp=$(systemd-analyze security --offline=true \
	    "$R/units/ssdtortured.service" 2>/dev/null |
	    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	echo "   exposure: ${exp:-?}"
	awk -v e="${exp:-99}" 'BEGIN { exit !(e <= 3.0) }' &&
	    ok "security exposure ${exp} <= 3.0" || bad "security exposure ${exp:-?} > 3.0"
else
	bad "systemd-analyze missing"
fi
echo "install-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
