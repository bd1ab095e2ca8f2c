# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# calltrace's bash completion: subcommands, each subcommand's options and
# the values of those that have few (the lists above, made from --help by
# tools/gen-completion.sh), and function names after -F, -N, --hide and as
# graph's and callers' FUNC, read from the recording (-d DIR, else
# ./calltrace.data) by the hidden `calltrace report --list-functions`.
# Installed as $PREFIX/share/bash-completion/completions/calltrace.

# the names of the functions called in the recording the words name
_calltrace_functions() {
	local dir=calltrace.data i w
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-d | --data)
			# "--data=DIR" is three words where '=' breaks words
			if [[ ${COMP_WORDS[i + 1]} == = ]]; then
				dir=${COMP_WORDS[i + 2]}
			else
				dir=${COMP_WORDS[i + 1]}
			fi
			;;
		--data=*) dir=${w#--data=} ;;
		-d?*) dir=${w#-d} ;;
		esac
	done
	[[ $dir == "~/"* ]] && dir=$HOME/${dir#"~/"}
	[[ -f $dir/info ]] || return 0
	command "${COMP_WORDS[0]}" report -d "$dir" --list-functions --demangle=simple \
		--no-pager 2>/dev/null
}

# COMPREPLY: the lines of stdin that begin with $1
_calltrace_matching() {
	local f
	while IFS= read -r f; do
		[[ $f == "$1"* ]] && COMPREPLY+=("$2$f")
	done
}

_calltrace() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		mapfile -t COMPREPLY < <(compgen -W "$_calltrace_commands --help --version" -- "$cur")
		return 0
	fi
	local cmd=${COMP_WORDS[1]}
	if [[ $cmd == help ]]; then
		((COMP_CWORD == 2)) &&
			mapfile -t COMPREPLY < <(compgen -W "$_calltrace_commands" -- "$cur")
		return 0
	fi
	[[ " $_calltrace_commands " == *" $cmd "* ]] || return 0

	local opts args
	if [[ $cmd == live || $cmd == top ]]; then
		# their own options, and record's
		opts=_calltrace_opts_$cmd args=_calltrace_args_$cmd
		opts="${!opts} $_calltrace_opts_record" args="${!args} $_calltrace_args_record"
	else
		opts=_calltrace_opts_$cmd args=_calltrace_args_$cmd
		opts=${!opts} args=${!args}
	fi

	# record, live and top: the words after the command are its own
	if [[ $cmd == record || $cmd == live || $cmd == top ]]; then
		local i w skip=0
		for ((i = 2; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			if ((skip)); then
				skip=0
			elif [[ $w == -- ]]; then
				return 0
			elif [[ $w == = ]]; then
				skip=1
			elif [[ " $args " == *" $w "* ]]; then
				skip=1
			elif [[ $w != -* ]]; then
				return 0 # the command's words: the default completion
			fi
		done
	fi

	# an option's argument: "--opt ARG", "--opt=ARG" (one word, or three
	# where '=' breaks words)
	local opt="" pre=""
	if [[ $cur == = ]]; then
		opt=$prev cur=""
	elif [[ $prev == = ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}
	elif [[ " $args " == *" $prev "* ]]; then
		opt=$prev
	fi
	if [[ -n $opt ]]; then
		case $opt in
		-d | --data | --diff)
			mapfile -t COMPREPLY < <(compgen -P "$pre" -d -- "$cur")
			;;
		-o | --output | --lib | --args-lib)
			mapfile -t COMPREPLY < <(compgen -P "$pre" -f -- "$cur")
			;;
		-F | -N | --filter | --notrace | --hide)
			# the recording's functions (record's are not recorded yet)
			[[ $cmd == record || $cmd == live || $cmd == top ]] ||
				_calltrace_matching "$cur" "$pre" < <(_calltrace_functions)
			;;
		--*)
			local vals=_calltrace_vals_${cmd}_${opt#--}
			vals=${vals//-/_}
			if [[ ($cmd == live || $cmd == top) && -z ${!vals-} ]]; then
				vals=_calltrace_vals_record_${opt#--}
				vals=${vals//-/_}
			fi
			[[ -n ${!vals-} ]] &&
				mapfile -t COMPREPLY < <(compgen -P "$pre" -W "${!vals}" -- "$cur")
			;;
		esac
		return 0
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		[[ $cmd == record || $cmd == live || $cmd == top ]] || return 0
	fi
	case $cmd in
	graph | callers)
		[[ $cur == -* ]] || _calltrace_matching "$cur" "" < <(_calltrace_functions)
		;;
	esac
	return 0
}

complete -o default -F _calltrace calltrace
