#!/bin/bash
# t_varlink_go: the control interface through a Varlink implementation this
# project did not write: the Go one packaged by Debian
# (golang-github-varlink-go-dev, varlink-go). Its client calls, pipelines
# and follows a stream (vlgo/vlclient.go); its parser reads both interface
# descriptions; its interface generator turns the Manager's description
# into Go code that compiles.
# run: heavy
# (tests/lib/jobs.sh; it compiles Go code, from an empty build cache)
. "$(dirname "$0")/lib.sh"

log "a Varlink client of another implementation"
GOSRC=/usr/share/gocode
[ -d "$GOSRC/src/github.com/varlink/go/varlink" ] ||
	die "golang-github-varlink-go-dev is not installed (make deps)"
command -v go >/dev/null || die "go is not installed (make deps)"
command -v varlink-go-interface-generator >/dev/null ||
	die "varlink-go is not installed (make deps)"
export GOPATH=$GOSRC GO111MODULE=off GOFLAGS= GOCACHE=$T/gocache
gobuild() { (cd "$T" && go build "$@") >"$T/go.log" 2>&1; }

gobuild -o "$T/vlclient" "$CT_DIR/vlgo/vlclient.go" ||
	{ cat "$T/go.log"; die "the Go client does not build"; }

write_conf
start_daemon
wait_for 20 written_past b 0 || die "drive b does not write"

if "$T/vlclient" "$SOCK" b "$T/io.ssdtorture.manager.varlink" >"$T/out" 2>&1; then
	pass_check "the Go client's checks"
else
	fail "the Go client's checks"
fi
sed 's/^/    /' "$T/out"
grep -q '^ok: the stream carries' "$T/out" ||
	fail "the Go client did not reach its last check"

mkdir -p "$T/gen"
cp "$T/io.ssdtorture.manager.varlink" "$T/gen/" 2>/dev/null ||
	die "no interface description was written"
if (cd "$T/gen" && varlink-go-interface-generator io.ssdtorture.manager.varlink) \
    >"$T/gen.log" 2>&1 && ls "$T"/gen/*.go >/dev/null 2>&1; then
	pass_check "the interface generator reads the description"
else
	cat "$T/gen.log"
	fail "the interface generator rejects the description"
fi
if gobuild "$T"/gen/*.go; then
	pass_check "the code generated from the description compiles"
	grep -q 'func (c__ \*Events_methods) Call\|Events' "$T"/gen/*.go &&
	    pass_check "it has the Events method" || fail "no Events in the generated code"
else
	cat "$T/go.log"
	fail "the code generated from the description does not compile"
fi

stop_daemon
[ "$DAEMON_RC" = 0 ] && pass_check "daemon exit 0" || fail "daemon exit status $DAEMON_RC"
finish
