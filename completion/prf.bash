# bash completion for prf (installed as bash-completion/completions/prf).
# Everything is asked of prf itself, so the lists follow the binary:
#   prf --list-cmds          the commands
#   prf CMD --list-opts      a command's long options ("--name=" takes a value)
#   prf list --raw-dump      event names, for -e/--event
# Files complete for -i/--input, -o/--output and anything else.

_prf_words()
{
	# the words of "$@" that start with $cur, into COMPREPLY
	local cur=$1 w
	shift
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("$w")
	done
}

_prf()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local prf=${COMP_WORDS[0]} cmd i

	if ((COMP_CWORD == 1)); then
		if [[ $cur == -* ]]; then
			_prf_words "$cur" --help --version --no-pager
		else
			_prf_words "$cur" $("$prf" --list-cmds 2>/dev/null)
		fi
		return
	fi
	cmd=${COMP_WORDS[1]}
	# "--event=cpu" is one word for readline when '=' is not a break
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	elif [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	fi
	case $cmd in
	help)
		_prf_words "$cur" $("$prf" --list-cmds 2>/dev/null)
		return ;;
	esac
	case $prev in
	-e|--event)
		_prf_words "$cur" $("$prf" list --raw-dump 2>/dev/null)
		return ;;
	-i|--input|-o|--output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		# a command with subcommands (data dump, ...) lists the subcommand's
		local args=("$cmd")
		for ((i = 2; i < COMP_CWORD; i++)); do
			[[ ${COMP_WORDS[i]} == -* ]] && break
			args+=("${COMP_WORDS[i]}")
		done
		_prf_words "$cur" $("$prf" "${args[@]}" --list-opts 2>/dev/null)
		# an option that takes a value: no space after its '='
		if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *= ]]; then
			compopt -o nospace 2>/dev/null
		fi
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _prf prf
