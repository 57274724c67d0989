#!/bin/bash
# make package-test: the Debian package built from this tree
# (tests/package/build.sh) and looked at from outside: lintian reports no
# error and no warning (an override, if any, says why in
# debian/ssdtorture.lintian-overrides), the package holds exactly the
# files `make install` installs plus its own documentation, the
# configuration is a conffile, and no maintainer script enables or starts
# the service. Installing, upgrading and purging it under systemd are
# tests/vm/guest/t_package.sh's. Prints "package-test: N passed, M failed".
cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
end() { echo "package-test: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }
T=$(mktemp -d /var/tmp/ssdt-package.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

tests/package/build.sh >"$T/build.out" 2>&1
rc=$?
deb=$(tail -n 1 "$T/build.out")
if [ "$rc" -eq 0 ] && [ -f "$deb" ]; then
	ok "dpkg-buildpackage -b -us -uc built $(basename "$deb")"
else
	cat "$T/build.out"
	bad "the package did not build"
	end
fi

# lintian: every tag of level warning or error fails; the others shown
lintian --display-info --fail-on error,warning "$deb" >"$T/lintian" 2>&1
rc=$?
sed 's/^/  lintian: /' "$T/lintian"
if [ "$rc" -eq 0 ] && ! grep -qE '^[EW]: ' "$T/lintian"; then
	ok "lintian: no error, no warning"
else
	bad "lintian reports errors or warnings (exit $rc)"
fi

# the files: make install's list (tests/install/check.sh), plus the
# package's documentation
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sort >"$T/list"
sed 's/\.[158]$/&.gz/' tests/install/files.txt - <<'LIST' | sort >"$T/want"
./usr/share/doc/ssdtorture/changelog.gz
./usr/share/doc/ssdtorture/copyright
LIST
if diff -u "$T/want" "$T/list" >"$T/diff"; then ok "the package's files"
else bad "the package's files differ:"; cat "$T/diff"; fi

mkdir "$T/ctl"
dpkg-deb -e "$deb" "$T/ctl"
if [ "$(cat "$T/ctl/conffiles" 2>/dev/null)" = /etc/ssdtorture/ssdtortured.conf ]; then
	ok "conffiles: /etc/ssdtorture/ssdtortured.conf"
else
	bad "conffiles: '$(cat "$T/ctl/conffiles" 2>/dev/null)'"
fi
# the service's unit as installed: the packaged binary's path
if dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./lib/systemd/system/ssdtortured.service |
    grep -qx 'ExecStart=/usr/sbin/ssdtortured -c /etc/ssdtorture/ssdtortured.conf'; then
	ok "the unit starts /usr/sbin/ssdtortured"
else
	bad "the unit's ExecStart is not /usr/sbin/ssdtortured"
fi
# dh_installsystemd --no-enable --no-start: no unit enabled but one the
# admin had enabled (its links made again, under "was-enabled"), none
# started, none stopped by an upgrade; postinst restarts only a running
# service, at an upgrade (try-restart)
if grep -hE 'deb-systemd-invoke (start|restart)|systemctl (start|enable|restart)' \
    "$T/ctl"/postinst "$T/ctl"/preinst 2>/dev/null; then
	bad "a maintainer script starts or enables a unit"
else
	ok "no maintainer script starts a unit or enables it unasked"
fi
if awk '/was-enabled/ { guard = NR } /deb-systemd-helper enable/ &&
    NR - guard > 2 { bad = 1 } END { exit bad }' "$T/ctl/postinst"; then
	ok "postinst enables a unit only where the admin had (was-enabled)"
else
	bad "postinst enables a unit the admin had not enabled"
fi
if [ -e "$T/ctl/preinst" ] && grep -q 'deb-systemd-invoke stop' "$T/ctl/preinst"; then
	bad "preinst stops the service at an upgrade"
else
	ok "an upgrade does not stop the service"
fi
if grep -q 'deb-systemd-invoke try-restart ssdtortured.service' "$T/ctl/postinst"; then
	ok "postinst restarts a running service at an upgrade (try-restart)"
else
	bad "postinst does not restart a running service at an upgrade"
fi
if grep -q 'deb-systemd-invoke stop ssdtortured.service ssdtortured.socket' \
    "$T/ctl/prerm" 2>/dev/null && grep -q '"$1" = "remove"' "$T/ctl/prerm"; then
	ok "prerm stops the service and its socket at a remove"
else
	bad "prerm does not stop the service at a remove"
fi
if grep -q 'systemd-sysusers' "$T/ctl/postinst" 2>/dev/null; then
	ok "postinst makes the ssdtorture group (systemd-sysusers)"
else
	bad "postinst does not run systemd-sysusers"
fi
end
