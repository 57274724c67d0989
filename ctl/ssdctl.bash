# bash completion for ssdctl(8); drive names come from the running daemon.
_ssdctl() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmds="status start stop pause resume verify checkpoint checkpoints probes smart graph report errors events reload version"
	local i cmd="" at=0 sock=""

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-s|--socket) sock=${COMP_WORDS[i+1]}; ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; at=$i; break ;;
		esac
	done
	case $prev in
	-s|--socket|-o|--rrd)
		COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--state-dir|--map-dir)
		COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--what)
		COMPREPLY=($(compgen -W "throughput tbw wear temperature latency errors flush errormap checkpoints timeline slc degradation" -- "$cur"))
		return ;;
	--figure)
		COMPREPLY=($(compgen -W "iops mbps p99 p99.9 cache" -- "$cur")); return ;;
	--at)
		COMPREPLY=($(compgen -W "0 latest" -- "$cur")); return ;;
	--probe)
		COMPREPLY=($(compgen -W "$(ssdctl probes 2>/dev/null | awk '{ print $1 }')" -- "$cur"))
		return ;;
	esac
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$cmds -s --socket -j --json -h --help" -- "$cur"))
		return
	fi
	local drives
	drives=$(ssdctl ${sock:+-s "$sock"} status 2>/dev/null | awk 'NR > 1 { print $1 }')
	case $cmd in
	status)
		COMPREPLY=($(compgen -W "$drives" -- "$cur")) ;;
	start|stop|pause|resume|verify|checkpoint|smart)
		((COMP_CWORD == at + 1)) && COMPREPLY=($(compgen -W "$drives" -- "$cur")) ;;
	events)
		COMPREPLY=($(compgen -W "$drives -n -f" -- "$cur")) ;;
	errors)
		COMPREPLY=($(compgen -W "$drives --pass --again --json" -- "$cur")) ;;
	checkpoints)
		COMPREPLY=($(compgen -W "$drives --latency --json --state-dir" -- "$cur")) ;;
	probes)
		COMPREPLY=($(compgen -W "--fio" -- "$cur")) ;;
	report)
		COMPREPLY=($(compgen -W "$drives -o --json --state-dir --at" -- "$cur")) ;;
	graph)
		COMPREPLY=($(compgen -W "$drives --what --since --until -o --width --height --rrd --daemon --map-dir --probe --figure --pass --state-dir" -- "$cur")) ;;
	esac
}
complete -F _ssdctl ssdctl
