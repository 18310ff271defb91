# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for rdmactl(8) and its busybox-style links (rdmactl-VERB, one
# for each verb of `rdmactl __complete help ''`)
#
# A thin wrapper: every candidate comes from the binary itself,
#
#     rdmactl __complete WORD... CUR
#
# (the words after the program name, the word being completed last, possibly
# empty), which walks the same tables as the parser and lists the devices of
# the host, or of the host below --root DIR.  Where a path is wanted, rdmactl
# answers ":file" or ":dir" and the shell lists them; the options that take a
# path (--root, --replay, --record) are also known here, before any call.
#
# Installed as $(BASHCOMPDIR)/rdmactl.  bash-completion loads it on demand
# for "rdmactl"; for a link name such as rdmactl-port it is loaded on demand
# only if a file (or symlink) of that name exists there too (make install
# makes one per verb), otherwise once this file has been sourced.  Sourcing it
# registers rdmactl and the link of every verb the rdmactl on PATH names.

# Global options whose value is a path: --root DIR, --replay FILE, --record FILE.
_rdmactl_path_opt()
{
	case $1 in
	--root | --replay | --record) return 0 ;;
	esac
	return 1
}

# Complete a path for option $1 into COMPREPLY; $2 is the word typed so far.
_rdmactl_complete_path()
{
	if declare -F _filedir >/dev/null 2>&1; then
		cur=$2
		if [[ $1 == --root ]]; then
			_filedir -d
		else
			_filedir
		fi
		return
	fi
	compopt -o filenames 2>/dev/null || :
	if [[ $1 == --root ]]; then
		mapfile -t COMPREPLY < <(compgen -d -- "$2")
	else
		mapfile -t COMPREPLY < <(compgen -f -- "$2")
	fi
}

_rdmactl()
{
	local -a words=() args=() cands=()
	local i w cword=0 cur bin verb="" prefix rlword

	COMPREPLY=()
	# Undo bash's splitting at '=' and ':' (COMP_WORDBREAKS): "--color" "="
	# "al" is the one word "--color=al" to rdmactl.
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 0 && ${#words[@]} > 0)) &&
			{ [[ $w == [=:] ]] || [[ ${COMP_WORDS[i - 1]} == [=:] ]]; }; then
			words[${#words[@]} - 1]+=$w
		else
			words+=("$w")
		fi
		((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
	done
	((COMP_CWORD >= ${#COMP_WORDS[@]})) && { words+=(""); cword=$((${#words[@]} - 1)); }
	cur=${words[cword]}

	bin=${words[0]}
	# shellcheck disable=SC2088 # a literal "~/" as typed, expanded here
	[[ $bin == "~/"* ]] && bin=$HOME/${bin#"~/"}
	case ${bin##*/} in
	rdmactl-?*) verb=${bin##*/} verb=${verb#rdmactl-} ;;
	esac

	# The words between the program and the current one, as rdmactl sees them.
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		# shellcheck disable=SC2088
		[[ $w == "~/"* ]] && w=$HOME/${w#"~/"}
		args+=("$w")
	done

	# A path after --root/--replay/--record (or --root=...): the shell's job.
	if ((cword > 1)) && _rdmactl_path_opt "${words[cword - 1]}"; then
		_rdmactl_complete_path "${words[cword - 1]}" "$cur"
		return 0
	fi
	if [[ $cur == --*=* ]] && _rdmactl_path_opt "${cur%%=*}"; then
		_rdmactl_complete_path "${cur%%=*}" "${cur#*=}"
		return 0
	fi

	# As rdmactl-VERB, the verb goes after the leading global options, where
	# rdmactl would read it.
	if [[ -n $verb ]]; then
		local -a with=()
		local placed=""
		for ((i = 0; i < ${#args[@]}; i++)); do
			w=${args[i]}
			if [[ -z $placed && $w == -* ]]; then
				with+=("$w")
				if _rdmactl_path_opt "$w" && ((i + 1 < ${#args[@]})); then
					with+=("${args[i + 1]}")
					i=$((i + 1))
				fi
				continue
			fi
			[[ -z $placed ]] && with+=("$verb") && placed=1
			with+=("$w")
		done
		# Still among the options: an option, or the verb's first word.
		[[ -z $placed && $cur != -* ]] && with+=("$verb")
		args=("${with[@]}")
	fi

	mapfile -t cands < <("$bin" __complete "${args[@]}" "$cur" 2>/dev/null)
	# rdmactl's answer ":file" or ":dir": a path (-f FILE, --root DIR), the shell's job.
	case ${cands[0]-} in
	:file) _rdmactl_complete_path --replay "$cur"; return 0 ;;
	:dir) _rdmactl_complete_path --root "$cur"; return 0 ;;
	esac

	# Readline replaces only the text after the last '=' or ':' of the word.
	rlword=${COMP_WORDS[COMP_CWORD]-}
	[[ $rlword == [=:] ]] && rlword=""
	prefix=${cur%"$rlword"}
	for w in "${cands[@]}"; do
		[[ $w == "$prefix"?* ]] && COMPREPLY+=("${w#"$prefix"}")
	done
	# "--color=" and a map's key ("3:") want their value right after them.
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *[=:] ]]; then
		compopt -o nospace 2>/dev/null || :
	fi
	return 0
}

# rdmactl, and rdmactl-VERB for each verb the rdmactl on PATH names: the verb
# table in the binary is the only list.
_rdmactl_register()
{
	local v bin
	complete -F _rdmactl rdmactl
	bin=$(type -P rdmactl) || return 0
	for v in $("$bin" __complete help '' 2>/dev/null); do
		complete -F _rdmactl "rdmactl-$v"
	done
	return 0
}
_rdmactl_register
