#!/bin/sh
# tests/man/check.sh: the manual pages lint clean and agree with the code.
#   1. mandoc -T lint -W warning prints nothing for each page;
#   2. the keys the daemon parses (ssdtortured --list-keys, its key table)
#      are the keys ssdtortured.conf(5) documents (.It Cm KEY), neither
#      side having one the other lacks;
#      and the keys its paragraphs on reload name are those the key table
#      marks fixed, no-raise, live ([daemon]) and restart;
#   3. every command of ctl/ssdctl.c's commands[] is a .It Cm entry of
#      ssdctl(8);
#   4. the EXIT_ values of the daemon and of ssdctl are the statuses their
#      pages list under EXIT STATUS, and no others;
#   5. conf/ssdtortured.conf passes ssdtortured -n;
#   6. the defaults ssdtortured.conf(5) and the README's tables of keys
#      state are those of the key table (tests/man/defaults.py: each stated
#      value resolves under -n to what the daemon applies).
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
for page in man/ssdtortured.8 man/ssdctl.8 man/ssdtortured.conf.5 man/ssdsim.1; do
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

# the daemon, for its key table (2.) and for -n (5.)
if [ ! -x daemon/ssdtortured ]; then
	make -C "$ROOT" all >"$tmp/make" 2>&1 || cat "$tmp/make"
fi

# 2. configuration keys: parser against page
daemon/ssdtortured --list-keys 2>/dev/null | cut -d' ' -f2 |
    sort -u >"$tmp/code"
sed -n 's/^\.It Cm \([A-Za-z_0-9]*\).*/\1/p' man/ssdtortured.conf.5 2>/dev/null |
    sort -u >"$tmp/page"
ncode=$(wc -l <"$tmp/code")
if [ "$ncode" -lt 20 ]; then
	not_ok "config keys: only $ncode keys listed by ssdtortured --list-keys"
elif ! cmp -s "$tmp/code" "$tmp/page"; then
	comm -23 "$tmp/code" "$tmp/page" | sed 's/^/  parsed but not documented: /'
	comm -13 "$tmp/code" "$tmp/page" | sed 's/^/  documented but not parsed: /'
	not_ok "config keys: ssdtortured --list-keys and man/ssdtortured.conf.5 differ"
else
	ok "config keys: $ncode keys, all documented"
fi

# 2b. reload policies: the .Cm names of a stretch of the page (from the
# line matching FROM to the one matching TO) against the table's keys of a
# section and policy: policy_check SECTION POLICY FROM TO
policy_check() {
	daemon/ssdtortured --list-keys 2>/dev/null |
	    awk -v s="$1" -v r="$2" '$1 == s && $3 == r { print $2 }' |
	    sort -u >"$tmp/pcode"
	sed -n "/$3/,/$4/p" man/ssdtortured.conf.5 | sed -n 's/^\.Cm //p' |
	    tr ' ,;' '\n\n\n' | sed '/^$/d' | sort -u >"$tmp/ppage"
	if [ ! -s "$tmp/pcode" ]; then
		not_ok "reload: no $1 key is $2 in ssdtortured --list-keys"
	elif cmp -s "$tmp/pcode" "$tmp/ppage"; then
		ok "reload: $1 keys $2 as documented: $(xargs <"$tmp/pcode")"
	else
		comm -23 "$tmp/pcode" "$tmp/ppage" | sed "s/^/  $2, not said: /"
		comm -13 "$tmp/pcode" "$tmp/ppage" | sed "s/^/  said $2, is not: /"
		not_ok "reload: $1 keys $2 differ from ssdtortured.conf.5"
	fi
}
policy_check drive fixed '^While a drive is under test' '^nor raise'
policy_check drive no-raise '^nor raise' 'old settings are kept'
policy_check daemon live '^A reload applies the' '^at once'
policy_check daemon restart '^at once; its' 'only with a restart'

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
	not_ok "example configuration: daemon/ssdtortured could not be built"
elif daemon/ssdtortured -n -c conf/ssdtortured.conf >"$tmp/n" 2>&1; then
	ok "example configuration: ssdtortured -n accepts it"
else
	cat "$tmp/n"
	not_ok "example configuration: ssdtortured -n rejects it"
fi

# 6. the defaults the page and the README state
if [ ! -x daemon/ssdtortured ]; then
	not_ok "defaults: daemon/ssdtortured could not be built"
elif python3 tests/man/defaults.py daemon/ssdtortured man/ssdtortured.conf.5 \
    README.md "$tmp" >"$tmp/defaults" 2>&1; then
	ok "defaults: ssdtortured.conf(5) and the README state the daemon's"
else
	sed 's/^/  /' "$tmp/defaults"
	not_ok "defaults: the page or the README states another default"
fi

echo "man: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
