# bash completion for fleetctl (generated from the command tree)
_fleetctl_subcommands() {
  case "$1" in
    "") echo "auth completion config devices fleets" ;;
    "devices") echo "get list" ;;
    "devices list") echo "" ;;
    "devices get") echo "" ;;
    "fleets") echo "get list" ;;
    "fleets list") echo "" ;;
    "fleets get") echo "" ;;
    "auth") echo "login logout status token" ;;
    "auth login") echo "" ;;
    "auth status") echo "" ;;
    "auth token") echo "" ;;
    "auth logout") echo "" ;;
    "config") echo "get list profiles set unset use" ;;
    "config list") echo "" ;;
    "config get") echo "" ;;
    "config set") echo "" ;;
    "config unset") echo "" ;;
    "config profiles") echo "" ;;
    "config use") echo "" ;;
    "completion") echo "" ;;
  esac
}
_fleetctl_options() {
  case "$1" in
    "") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "devices") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "devices list") echo "--all --auth-url --base-url --columns --cursor --debug --fleet-id --hardware-id --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --timeout --version -V -o" ;;
    "devices get") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "fleets") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "fleets list") echo "--all --auth-url --base-url --columns --cursor --debug --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --timeout --version -V -o" ;;
    "fleets get") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "auth") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "auth login") echo "--auth-url --base-url --client-id --client-secret-stdin --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --scopes --timeout --version -V -o" ;;
    "auth status") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "auth token") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --scope --timeout --version -V -o" ;;
    "auth logout") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config list") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config get") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config set") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config unset") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config profiles") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config use") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "completion") echo "--auth-url --base-url --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
  esac
}
_fleetctl_cmdpath() {
  local cmdpath="" word subs
  for word in "$@"; do
    subs=" $(_fleetctl_subcommands "$cmdpath") "
    if [[ "$word" != -* && "$subs" == *" $word "* ]]; then cmdpath="${cmdpath:+$cmdpath }$word"; fi
  done
  echo "$cmdpath"
}
_fleetctl() {
  local cur="${COMP_WORDS[COMP_CWORD]}" cmdpath
  cmdpath="$(_fleetctl_cmdpath "${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$(_fleetctl_options "$cmdpath")" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "$(_fleetctl_subcommands "$cmdpath")" -- "$cur") )
  fi
}
complete -F _fleetctl fleetctl
