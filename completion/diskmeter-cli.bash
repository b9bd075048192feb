# SPDX-License-Identifier: GPL-3.0-or-later
# Bash completion for diskmeter-cli (safe under set -u). Options, subcommands and the values
# listed as a|b|c are read from the program's own --help (once per shell),
# so they follow the option table; profiles, tests and columns come from
# the engine's tables through the lines above, written at build time.

declare -gA _dm_cli_help_cache

# The --help of CLI [COMMAND], kept for the rest of the shell's life.
_dm_cli_help ()
{
  local key="$1 ${2-}"
  if [[ -z ${_dm_cli_help_cache[$key]+set} ]]; then
    _dm_cli_help_cache[$key]=$(LC_ALL=C "$1" ${2:+"$2"} --help 2>/dev/null)
  fi
  printf '%s\n' "${_dm_cli_help_cache[$key]}"
}

# Every option the --help of CLI [COMMAND] names, one per line, each with
# its value where it takes one ("--format=text|json|csv" or "--count N" in
# the help): "--format text|json|csv", "--count N".
_dm_cli_option_specs ()
{
  _dm_cli_help "$1" "${2-}" |
    grep -oE -- '--[a-z][a-z0-9-]*([ =][A-Za-z0-9/._]+(\|[A-Za-z0-9/._]+)+|[ =][A-Z][A-Z0-9_]*)?' |
    sed 's/=/ /'
}

# The subcommands diskmeter-cli --help lists ("  diskmeter-cli sweep ...").
_dm_cli_commands ()
{
  _dm_cli_help "$1" | sed -n 's/^ *diskmeter-cli \([a-z][a-z-]*\).*/\1/p' | sort -u
}

# The actions a subcommand's usage names: "diskmeter-cli history [list]",
# "diskmeter-cli history show N".
_dm_cli_actions ()
{
  _dm_cli_help "$1" "$2" | sed -n "s/^.*diskmeter-cli $2 \[\{0,1\}\([a-z][a-z]*\).*/\1/p" | sort -u
}

_dm_cli_dirs ()
{
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -d -- "$1"))
}

_dm_cli_files ()
{
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$1"))
}

# Completes the last item of a comma-separated list from WORDS.
_dm_cli_list ()
{
  local cur="$1" words="$2" head="" w
  [[ $cur == *,* ]] && head="${cur%,*},"
  compopt -o nospace 2>/dev/null
  COMPREPLY=()
  for w in $words; do
    [[ $head$w == "$cur"* ]] && COMPREPLY+=("$head$w")
  done
}

_diskmeter_cli ()
{
  local cli="${1:-diskmeter-cli}" cur="${COMP_WORDS[COMP_CWORD]}"
  local prev="" cmd="" action="" i w spec specs
  ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  # "--profile=pe": bash splits at '=' (COMP_WORDBREAKS), so the words are
  # "--profile" "=" "pe", or "--profile" "=" while the value is empty.
  if [[ $cur == = ]]; then
    cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
    prev="${COMP_WORDS[COMP_CWORD-2]}"
  fi
  # A leading ~ is the user's home, as readline would read it.
  [[ $cli == "~/"* ]] && cli="$HOME/${cli#\~/}"

  local commands
  commands=$(_dm_cli_commands "$cli")

  # A subcommand is the first word or none, as diskmeter-cli reads it; the
  # next word that is no option may be its action (history show).
  if ((COMP_CWORD > 1)) && grep -qxF -- "${COMP_WORDS[1]}" <<<"$commands"; then
    cmd="${COMP_WORDS[1]}"
    for ((i = 2; i < COMP_CWORD; i++)); do
      w="${COMP_WORDS[i]}"
      [[ $w != -* && $w != = ]] && { action="$w"; break; }
    done
  fi

  specs=$(_dm_cli_option_specs "$cli" "$cmd")

  # The value of the option before the cursor.
  if [[ $prev == --* ]]; then
    spec=$(grep -m1 -E -- "^$prev " <<<"$specs")
    if [[ -n $spec ]]; then
      local arg="${spec#* }"
      case "$prev" in
        --profile) COMPREPLY=($(compgen -W "$_dm_cli_profiles" -- "$cur")); return ;;
        --tests) _dm_cli_list "$cur" "$_dm_cli_tests"; return ;;
        --modes) _dm_cli_list "$cur" "$_dm_cli_modes"; return ;;
        --backend) COMPREPLY=($(compgen -W "$_dm_cli_backends" -- "$cur")); return ;;
      esac
      if [[ $arg == *"|"* ]]; then
        local values="" v
        for v in ${arg//|/ }; do
          case "$v" in SIZE|N|LIST|SEC|FILE|NAME) ;; *) values+=" $v" ;; esac
        done
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
        return
      fi
      case "$arg" in
        FILE) _dm_cli_files "$cur" ;;
        TARGET*|DIR) _dm_cli_dirs "$cur" ;;
        DEVICE) _dm_cli_files "${cur:-/dev/}" ;;
      esac
      return
    fi
  fi

  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(sed 's/ .*//' <<<"$specs" | sort -u)" -- "$cur"))
    return
  fi

  case "$cmd" in
    "")
      # TARGET: a folder (a block device when the word starts /dev/), or
      # a subcommand as the first word.
      if [[ $cur == /dev/* ]]; then
        _dm_cli_files "$cur"
        return
      fi
      _dm_cli_dirs "$cur"
      ((COMP_CWORD == 1)) && COMPREPLY+=($(compgen -W "$commands" -- "$cur"))
      ;;
    *)
      # A subcommand that measures takes a TARGET folder, as its usage says.
      if _dm_cli_help "$cli" "$cmd" | head -n1 | grep -q 'TARGET'; then
        _dm_cli_dirs "$cur"
        return
      fi
      local actions
      actions=$(_dm_cli_actions "$cli" "$cmd")
      if [[ -n $actions && -z $action ]]; then
        COMPREPLY=($(compgen -W "$actions" -- "$cur"))
      elif [[ -z $actions ]]; then
        # Saved runs: JSON files, and folders to reach them.
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.json' -- "$cur"))
      elif [[ $action == export ]]; then
        _dm_cli_files "$cur"
      fi
      ;;
  esac
}

complete -F _diskmeter_cli diskmeter-cli
