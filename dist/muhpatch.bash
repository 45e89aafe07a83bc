# bash completion for muhpatch: subcommands, their options, and the values of
# --format, --color and the file arguments. tests/cli/install.sh checks that
# it lists every subcommand and option `muhpatch help COMMAND` shows.
_muhpatch() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands="diff apply verify status model test help"
  local global="-h --help -v --verbose -q --quiet --color --version"
  local cmd="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      diff | apply | verify | status | model | test | help)
        cmd=${COMP_WORDS[i]}
        break
        ;;
    esac
  done
  # `--color=a`: bash splits at '=', so the option is two words back.
  if [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == = ]]; then
    cur=""
  fi
  local formats=""
  case $cmd in
    diff) formats="text markdown" ;;
    verify) formats="text json sarif github" ;;
    status) formats="text json markdown" ;;
  esac
  case $prev in
    --color)
      mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur")
      return
      ;;
    --format)
      mapfile -t COMPREPLY < <(compgen -W "$formats" -- "$cur")
      return
      ;;
    --hw | --patch | --base-patch | -o | --hf-config | --serve-args | --tree)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
    --set | --rule | --threads)
      return
      ;;
  esac
  local opts=""
  case $cmd in
    "")
      if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$global" -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
      fi
      return
      ;;
    help)
      mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
      return
      ;;
    diff) opts="--rule --hw --set --hf-config --serve-args --measurements --explain --include-dead --retune --patch --base-patch -o --format" ;;
    apply) opts="--rule --hw --set --hf-config --serve-args --measurements --explain --include-dead --retune --patch --keep-going" ;;
    verify) opts="--rule --hw --set --hf-config --serve-args --measurements --include-dead --retune --patch -p --threads --format --explain" ;;
    status) opts="--rule --hw --set --hf-config --serve-args --measurements --include-dead --retune --patch --format" ;;
    model) opts="--hw --set --hf-config --serve-args --measurements --explain --tree" ;;
    test) opts="--hw --set --hf-config --serve-args --measurements" ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts $global" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -o filenames -o bashdefault -F _muhpatch muhpatch
