# bash completion for fleetctl (generated from the command tree)
_fleetctl_subcommands() {
  case "$1" in
    "") echo "api auth completion config devices drivers events fleets journeys organizations sandbox vehicles webhook webhook-config" ;;
    "devices") echo "assign events get last-position last-reported list media reboot unassign wake-up" ;;
    "devices list") echo "" ;;
    "devices get") echo "" ;;
    "devices assign") echo "" ;;
    "devices unassign") echo "" ;;
    "devices reboot") echo "" ;;
    "devices wake-up") echo "" ;;
    "devices events") echo "" ;;
    "devices last-reported") echo "" ;;
    "devices last-position") echo "" ;;
    "devices media") echo "download" ;;
    "devices media download") echo "" ;;
    "fleets") echo "get list" ;;
    "fleets list") echo "" ;;
    "fleets get") echo "" ;;
    "drivers") echo "create get list update" ;;
    "drivers list") echo "" ;;
    "drivers get") echo "" ;;
    "drivers create") echo "" ;;
    "drivers update") echo "" ;;
    "events") echo "get media search" ;;
    "events search") echo "" ;;
    "events get") echo "" ;;
    "events media") echo "" ;;
    "vehicles") echo "get list" ;;
    "vehicles list") echo "" ;;
    "vehicles get") echo "" ;;
    "journeys") echo "list" ;;
    "journeys list") echo "" ;;
    "organizations") echo "descendants get list" ;;
    "organizations list") echo "" ;;
    "organizations get") echo "" ;;
    "organizations descendants") echo "" ;;
    "api") echo "" ;;
    "webhook-config") echo "apply create delete diff disable enable get regenerate-key topics" ;;
    "webhook-config get") echo "" ;;
    "webhook-config create") echo "" ;;
    "webhook-config enable") echo "" ;;
    "webhook-config disable") echo "" ;;
    "webhook-config topics") echo "remove set" ;;
    "webhook-config topics set") echo "" ;;
    "webhook-config topics remove") echo "" ;;
    "webhook-config regenerate-key") echo "" ;;
    "webhook-config diff") echo "" ;;
    "webhook-config apply") echo "" ;;
    "webhook-config delete") echo "" ;;
    "webhook") echo "listen trigger" ;;
    "webhook listen") echo "" ;;
    "webhook trigger") echo "" ;;
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
    "sandbox") echo "emit reset" ;;
    "sandbox reset") echo "" ;;
    "sandbox emit") echo "" ;;
    "completion") echo "" ;;
  esac
}
_fleetctl_options() {
  case "$1" in
    "") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "devices") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "devices list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --hardware-id --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --timeout --version -V -o" ;;
    "devices get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "devices assign") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --vehicle-id --version -V -o" ;;
    "devices unassign") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version --yes -V -o -y" ;;
    "devices reboot") echo "--auth-url --base-url --ca-file --columns --concurrency --debug --dry-run --fleet-id --from-file --help --idempotency-key --insecure --journal --json --max-devices --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --resume --sandbox --timeout --version --yes -V -o -y" ;;
    "devices wake-up") echo "--auth-url --base-url --ca-file --columns --concurrency --debug --dry-run --fleet-id --from-file --help --idempotency-key --insecure --journal --json --max-devices --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --resume --sandbox --timeout --version --yes -V -o -y" ;;
    "devices events") echo "--accident --all --auth-url --base-url --ca-file --columns --cursor --debug --from --help --important --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --timeout --to --type --version -V -o" ;;
    "devices last-reported") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "devices last-position") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --interval --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version --watch -V -o -w" ;;
    "devices media") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --from --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --to --version -V -o" ;;
    "devices media download") echo "--all --auth-url --base-url --ca-file --columns --debug --dir --from --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --to --version -V -o" ;;
    "fleets") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "fleets list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --timeout --version -V -o" ;;
    "fleets get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "drivers") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "drivers list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --timeout --version -V -o" ;;
    "drivers get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "drivers create") echo "--auth-url --base-url --ca-file --columns --debug --email --employee-id --first-name --fleet-id --from-file --help --insecure --json --last-name --license-number --max-retries --max-retry-wait --no-color --no-input --organization-id --output --phone --profile --sandbox --timeout --version -V -o" ;;
    "drivers update") echo "--auth-url --base-url --ca-file --columns --debug --email --employee-id --first-name --fleet-id --from-file --help --insecure --json --last-name --license-number --max-retries --max-retry-wait --no-color --no-input --output --phone --profile --sandbox --status --timeout --version -V -o" ;;
    "events") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "events search") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --from --hardware-id --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --timeout --to --type --vehicle-id --version -V -o" ;;
    "events get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "events media") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "vehicles") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "vehicles list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --timeout --version -V -o" ;;
    "vehicles get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "journeys") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "journeys list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --from --hardware-id --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --timeout --to --vehicle-id --version -V -o" ;;
    "organizations") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "organizations list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "organizations get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "organizations descendants") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --help --insecure --json --limit --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "api") echo "--auth-url --base-url --ca-file --columns --debug --field --header --help --idempotency-key --input --insecure --json --list --max-retries --max-retry-wait --no-color --no-input --output --paginate --profile --raw-field --refresh --sandbox --timeout --version -F -H -V -f -o" ;;
    "webhook-config") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook-config get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook-config create") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --topics --url --version -V -o" ;;
    "webhook-config enable") echo "--auth-url --base-url --ca-file --columns --debug --help --if-match --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook-config disable") echo "--auth-url --base-url --ca-file --columns --debug --help --if-match --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook-config topics") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook-config topics set") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --disabled --help --if-match --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --url --version -V -o" ;;
    "webhook-config topics remove") echo "--auth-url --base-url --ca-file --columns --debug --help --if-match --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook-config regenerate-key") echo "--auth-url --base-url --ca-file --columns --debug --help --if-match --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook-config diff") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --file --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version -V -f -o" ;;
    "webhook-config apply") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --file --help --if-match --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version -V -f -o" ;;
    "webhook-config delete") echo "--auth-url --base-url --ca-file --columns --debug --help --if-match --insecure --json --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --timeout --version --yes -V -o -y" ;;
    "webhook") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "webhook listen") echo "--auth-url --base-url --ca-file --columns --debug --forward-to --help --host --insecure --json --key --key-env --max-events --max-retries --max-retry-wait --no-color --no-input --output --port --previous-key --profile --sandbox --timeout --version -V -o" ;;
    "webhook trigger") echo "--auth-url --base-url --ca-file --columns --debug --hardware-id --help --insecure --json --key --key-env --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --to --version -V -o" ;;
    "auth") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "auth login") echo "--auth-url --base-url --ca-file --client-id --client-secret-stdin --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --scopes --timeout --version -V -o" ;;
    "auth status") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "auth token") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --scope --timeout --version -V -o" ;;
    "auth logout") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config list") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config get") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config set") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config unset") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config profiles") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "config use") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
    "sandbox") echo "--allow-private-webhooks --auth-url --base-url --ca-file --columns --debug --devices --emit-rate --fault-rate --help --host --insecure --json --latency --max-retries --max-retry-wait --no-color --no-input --output --port --profile --propagation --rate-limit --sandbox --seed --state --timeout --tls --token-ttl --version -V -o" ;;
    "sandbox reset") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --state --timeout --version -V -o" ;;
    "sandbox emit") echo "--auth-url --base-url --ca-file --columns --count --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --timeout --version -V -o" ;;
    "completion") echo "--auth-url --base-url --ca-file --columns --debug --help --insecure --json --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --timeout --version -V -o" ;;
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
