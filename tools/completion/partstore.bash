# bash completion for partstore: the commands, then each command's options as its --help lists
# them (so the completion follows the program), and file names for options that take one.
# Installed as /usr/share/bash-completion/completions/partstore by the Debian package; or
#   source tools/completion/partstore.bash
_partstore() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD - 1]}"
    cword=$COMP_CWORD
    words=("${COMP_WORDS[@]}")
  }
  local program="${words[0]}"
  local commands="demo simulate run serve export import bench help"
  if [[ $cword -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  local command="${words[1]}"
  if [[ $command == help ]]; then
    [[ $cword -eq 2 ]] && COMPREPLY=($(compgen -W "${commands% help}" -- "$cur"))
    return
  fi
  case "$prev" in
    --json | --html | --prices | --trace | --tables | --record | --access-keys | --data-dir | \
      --s3-dir | --to | --static-body)
      COMPREPLY=($(compgen -f -- "$cur"))
      return
      ;;
  esac
  if [[ $cur == -* ]]; then
    local options
    options=$("$program" "$command" --help 2>/dev/null | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' |
      grep -oE -- '--[a-z0-9-]+')
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    return
  fi
  if [[ $command == simulate ]]; then
    local scenarios
    scenarios=$("$program" simulate --list 2>/dev/null | awk '{print $1}')
    COMPREPLY=($(compgen -W "$scenarios" -- "$cur") $(compgen -f -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _partstore partstore
