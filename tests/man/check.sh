#!/bin/sh
# tests/man/check.sh: the manual pages lint clean and agree with the code.
#   1. mandoc -T lint -W warning prints nothing for each page;
#   2. the keys daemon/config.c parses are the keys ssdtortured.conf(5)
#      documents (.It Cm KEY), neither side having one the other lacks;
#   3. every command of ctl/ssdctl.c's commands[] is a .It Cm entry of
#      ssdctl(8);
#   4. the EXIT_ values of the daemon and of ssdctl are the statuses their
#      pages list under EXIT STATUS, and no others;
#   5. conf/ssdtortured.conf passes ssdtortured -n.
# Last line: "man: N passed, M failed"; exit status 1 when any failed.
# ROOT=DIR checks another tree (e.g. a scratch copy) instead of this one.
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 1
pass=0
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok: $1"; pass=$((pass + 1)); }
not_ok() { echo "FAIL: $1"; fail=$((fail + 1)); }

# 1. lint
for page in man/ssdtortured.8 man/ssdctl.8 man/ssdtortured.conf.5; do
	if [ ! -f "$page" ]; then
		not_ok "lint $page: missing"
		continue
	fi
	mandoc -T lint -W warning "$page" >"$tmp/lint" 2>&1
	if [ -s "$tmp/lint" ]; then
		cat "$tmp/lint"
		not_ok "lint $page"
	else
		ok "lint $page"
	fi
done

# 2. configuration keys: parser against page
# the keys of config.c's daemon_keys[] and drive_keys[] tables
awk -f tests/lib/conf_keys.awk daemon/config.c | cut -d' ' -f2 |
    sort -u >"$tmp/code"
sed -n 's/^\.It Cm \([A-Za-z_0-9]*\).*/\1/p' man/ssdtortured.conf.5 2>/dev/null |
    sort -u >"$tmp/page"
ncode=$(wc -l <"$tmp/code")
if [ "$ncode" -lt 20 ]; then
	not_ok "config keys: only $ncode keys extracted from daemon/config.c"
elif ! cmp -s "$tmp/code" "$tmp/page"; then
	comm -23 "$tmp/code" "$tmp/page" | sed 's/^/  parsed but not documented: /'
	comm -13 "$tmp/code" "$tmp/page" | sed 's/^/  documented but not parsed: /'
	not_ok "config keys: daemon/config.c and man/ssdtortured.conf.5 differ"
else
	ok "config keys: $ncode keys, all documented"
fi

# 3. ssdctl commands
awk '
/^static const struct command commands\[\]/ { t = 1; next }
t && /^};/ { t = 0 }
t && match($0, /^[ \t]*\{ *"[a-z]+"/) {
	k = substr($0, RSTART, RLENGTH); sub(/^[ \t]*\{ *"/, "", k);
	sub(/"$/, "", k); print k
}' ctl/ssdctl.c | sort -u >"$tmp/cmds"
sed -n 's/^\.It Cm \([a-z]*\).*/\1/p' man/ssdctl.8 2>/dev/null |
    sort -u >"$tmp/cmdpage"
ncmd=$(wc -l <"$tmp/cmds")
missing=$(comm -23 "$tmp/cmds" "$tmp/cmdpage")
if [ "$ncmd" -lt 1 ]; then
	not_ok "ssdctl commands: none extracted from ctl/ssdctl.c"
elif [ -n "$missing" ]; then
	echo "$missing" | sed 's/^/  not documented in ssdctl.8: /'
	not_ok "ssdctl commands"
else
	ok "ssdctl commands: $ncmd, all documented"
fi

# 4. exit statuses: the EXIT_ values the code defines are the .It entries
# of each page's EXIT STATUS list, no more and no fewer
# exit_check PAGE SOURCE...
exit_check() {
	local page=$1 code doc
	shift
	code=$(sed -nE 's/^#define[[:space:]]+EXIT_[A-Z0-9_]+[[:space:]]+([0-9]+)\>.*/\1/p' "$@" |
	    { cat; echo 0; } | sort -nu | tr '\n' ' ')
	if grep -E '^#define[[:space:]]+EXIT_' "$@" | grep -qvE '[[:space:]][0-9]+([[:space:]]|$)'; then
		not_ok "exit statuses: an EXIT_ define in $* is not a plain number"
		return
	fi
	doc=$(sed -n '/^\.Sh EXIT STATUS/,/^\.El/s/^\.It \([0-9]*\)$/\1/p' \
	    "$page" | sort -nu | tr '\n' ' ')
	if [ "$code" = "$doc" ]; then
		ok "exit statuses of $page: $code"
	else
		not_ok "exit statuses: code has '$code', $page documents '$doc'"
	fi
}
exit_check man/ssdtortured.8 daemon/daemon.h
exit_check man/ssdctl.8 ctl/ssdctl.c ctl/graph.c

# 5. the example configuration is valid
if [ ! -x daemon/ssdtortured ]; then
	make -C "$ROOT" all >"$tmp/make" 2>&1 || cat "$tmp/make"
fi
if [ ! -x daemon/ssdtortured ]; then
	not_ok "example configuration: daemon/ssdtortured could not be built"
elif daemon/ssdtortured -n -c conf/ssdtortured.conf >"$tmp/n" 2>&1; then
	ok "example configuration: ssdtortured -n accepts it"
else
	cat "$tmp/n"
	not_ok "example configuration: ssdtortured -n rejects it"
fi

echo "man: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
