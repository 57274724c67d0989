# python.sh: the tests call python3 thousands of times (assertions, state
# polls, Varlink calls every 0.1 s). Where python3 on PATH is a version
# manager's wrapper (a pyenv shim is a shell script that works out the
# version on every call, near a second on a busy machine), run the same
# interpreter directly. Sourced by the test runners; POSIX sh.
#
#   py_direct DIR   when python3 on PATH is not the interpreter itself, put
#                   a link to the interpreter it runs in DIR, and DIR first
#                   on PATH (exported); otherwise leave PATH alone

py_direct() {
	_py_exe=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) ||
	    return 0
	[ -n "$_py_exe" ] && [ -x "$_py_exe" ] || return 0
	[ "$(command -v python3)" = "$_py_exe" ] && return 0
	mkdir -p "$1" && ln -sf "$_py_exe" "$1/python3" || return 0
	PATH=$1:$PATH
	export PATH
}
