#!/bin/bash
# tests/package/build.sh: the Debian package of this tree, built as
# `dpkg-buildpackage -b -us -uc` builds it, in a copy of the tree's own
# files (tracked and new, not ignored ones) under build/deb/src, so that
# the checkout stays as it is. The packages land in build/deb/; the last
# line printed is the path of ssdtorture's .deb. Exit 1 on failure, with
# the build log's tail.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUT=$ROOT/build/deb
rm -rf "$OUT"
mkdir -p "$OUT/src" || exit 1
if [ -d .git ] && command -v git >/dev/null; then
	# (a file deleted in the tree but still in the index is not copied)
	git ls-files -z --cached --others --exclude-standard |
	    xargs -0 cp --parents -a -t "$OUT/src" 2>/dev/null
else
	tar -C "$ROOT" --exclude=./build -cf - . | tar -C "$OUT/src" -xf -
	make -C "$OUT/src" -s clean >/dev/null 2>&1
fi
[ -f "$OUT/src/debian/control" ] || { echo "build.sh: no debian/ in the copy" >&2; exit 1; }
if ! (cd "$OUT/src" && dpkg-buildpackage -b -us -uc -j"$(nproc)") \
    >"$OUT/build.log" 2>&1; then
	tail -n 40 "$OUT/build.log" >&2
	echo "build.sh: dpkg-buildpackage failed (log: $OUT/build.log)" >&2
	exit 1
fi
deb=
for f in "$OUT"/ssdtorture_*.deb; do	# not ssdtorture-dbgsym_*
	[ -f "$f" ] && deb=$f
done
[ -n "$deb" ] || { echo "build.sh: no ssdtorture .deb in $OUT" >&2; exit 1; }
echo "$deb"
