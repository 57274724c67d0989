# conf_keys.awk: the configuration keys daemon/config.c parses, read from
# its key tables, one "SECTION KEY" line each (SECTION: daemon or drive).
# Used by tests/man/check.sh and tests/integration/t_config.sh.
#   awk -f tests/lib/conf_keys.awk daemon/config.c
/^static const struct [a-z_]+ daemon_keys\[\]/ { sec = "daemon"; next }
/^static const struct [a-z_]+ drive_keys\[\]/ { sec = "drive"; next }
sec != "" && /^};/ { sec = "" }
sec != "" && match($0, /^[ \t]*D?KEY\([a-z_0-9]+/) {
	k = substr($0, RSTART, RLENGTH)
	sub(/^[ \t]*D?KEY\(/, "", k)
	print sec, k
}
