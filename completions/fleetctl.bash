# bash completion for fleetctl (generated from the command tree)
_fleetctl_subcommands() {
  case "$1" in
    "") echo "alias api auth completion config devices drivers events extension fleets help history journeys organizations sandbox selection status vehicles webhook webhook-config" ;;
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
    "status") echo "" ;;
    "selection") echo "delete list save show" ;;
    "selection save") echo "" ;;
    "selection list") echo "" ;;
    "selection show") echo "" ;;
    "selection delete") echo "" ;;
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
    "history") echo "" ;;
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
    "alias") echo "delete list set" ;;
    "alias set") echo "" ;;
    "alias list") echo "" ;;
    "alias delete") echo "" ;;
    "extension") echo "list" ;;
    "extension list") echo "" ;;
    "sandbox") echo "emit fault requests reset" ;;
    "sandbox reset") echo "" ;;
    "sandbox emit") echo "" ;;
    "sandbox fault") echo "add clear list" ;;
    "sandbox fault add") echo "" ;;
    "sandbox fault list") echo "" ;;
    "sandbox fault clear") echo "" ;;
    "sandbox requests") echo "" ;;
    "completion") echo "" ;;
    "help") echo "reference select" ;;
    "help reference") echo "" ;;
    "help select") echo "" ;;
  esac
}
_fleetctl_options() {
  case "$1" in
    "") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "devices") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "devices list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --guided --hardware-id --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --slurp --sort --timeout --version --where -V -o" ;;
    "devices get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "devices assign") echo "--auth-url --base-url --ca-file --columns --concurrency --debug --dry-run --field --from-file --guided --help --insecure --journal --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --resume --sandbox --slurp --timeout --vehicle-id --version --where --yes -V -o -y" ;;
    "devices unassign") echo "--auth-url --base-url --ca-file --columns --concurrency --debug --dry-run --from-file --guided --help --insecure --journal --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --resume --sandbox --slurp --timeout --version --where --yes -V -o -y" ;;
    "devices reboot") echo "--abort-if-failed --allow-empty --auth-url --base-url --ca-file --canary --canary-wait --columns --concurrency --debug --dry-run --fleet-id --from-file --from-run --guided --help --idempotency-key --insecure --journal --jq --json --log-format --max-devices --max-retries --max-retry-wait --no-color --no-input --only --organization-id --output --profile --report-time-field --resume --sandbox --slurp --timeout --version --wait --wait-timeout --wave --wave-pause --where --yes -V -o -y" ;;
    "devices wake-up") echo "--abort-if-failed --allow-empty --auth-url --base-url --ca-file --canary --canary-wait --columns --concurrency --debug --dry-run --fleet-id --from-file --from-run --guided --help --idempotency-key --insecure --journal --jq --json --log-format --max-devices --max-retries --max-retry-wait --no-color --no-input --only --organization-id --output --profile --report-time-field --resume --sandbox --slurp --timeout --version --wait --wait-timeout --wave --wave-pause --where --yes -V -o -y" ;;
    "devices events") echo "--accident --all --auth-url --base-url --ca-file --checkpoint --columns --cursor --debug --follow --from --guided --help --important --insecure --interval --jq --json --limit --log-format --max-events --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --slurp --sort --timeout --to --type --until --version -V -f -o" ;;
    "devices last-reported") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "devices last-position") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --interval --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version --watch -V -o -w" ;;
    "devices media") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --from --guided --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --slurp --sort --timeout --to --version -V -o" ;;
    "devices media download") echo "--all --auth-url --base-url --ca-file --columns --debug --dir --from --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --slurp --timeout --to --version -V -o" ;;
    "fleets") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "fleets list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --guided --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --slurp --sort --timeout --version -V -o" ;;
    "fleets get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "drivers") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "drivers list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --guided --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --slurp --sort --timeout --version -V -o" ;;
    "drivers get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "drivers create") echo "--auth-url --base-url --ca-file --columns --debug --email --employee-id --field --first-name --fleet-id --from-file --guided --help --insecure --jq --json --last-name --license-number --log-format --max-retries --max-retry-wait --no-color --no-input --organization-id --output --phone --profile --sandbox --slurp --timeout --version -V -o" ;;
    "drivers update") echo "--auth-url --base-url --ca-file --columns --debug --email --employee-id --field --first-name --fleet-id --from-file --guided --help --insecure --jq --json --last-name --license-number --log-format --max-retries --max-retry-wait --no-color --no-input --output --phone --profile --sandbox --slurp --status --timeout --version -V -o" ;;
    "events") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "events search") echo "--all --auth-url --base-url --ca-file --checkpoint --columns --cursor --debug --fleet-id --follow --from --guided --hardware-id --help --insecure --interval --jq --json --limit --log-format --max-events --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --slurp --sort --timeout --to --type --until --vehicle-id --version -V -f -o" ;;
    "events get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "events media") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --guided --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --sort --timeout --version -V -o" ;;
    "vehicles") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "vehicles list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --guided --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --slurp --sort --timeout --version -V -o" ;;
    "vehicles get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "journeys") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "journeys list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --fleet-id --from --guided --hardware-id --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --slurp --sort --timeout --to --vehicle-id --version -V -o" ;;
    "status") echo "--auth-url --base-url --ca-file --checkpoint --columns --debug --exit-on-breach --fail-if --fleet-id --guided --help --insecure --jq --json --list --log-format --max-retries --max-retry-wait --no-color --no-input --on-breach --organization-id --output --profile --report-time-field --sandbox --since --slurp --stale-after --timeout --version --watch --where -V -o" ;;
    "selection") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "selection save") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version --where -V -o" ;;
    "selection list") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "selection show") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "selection delete") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "organizations") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "organizations list") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --guided --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --sort --timeout --version -V -o" ;;
    "organizations get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "organizations descendants") echo "--all --auth-url --base-url --ca-file --columns --cursor --debug --guided --help --insecure --jq --json --limit --log-format --max-items --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --sort --timeout --version -V -o" ;;
    "api") echo "--auth-url --base-url --ca-file --columns --debug --field --guided --header --help --idempotency-key --input --insecure --jq --json --list --log-format --max-retries --max-retry-wait --no-color --no-input --output --paginate --profile --raw-field --refresh --sandbox --slurp --timeout --version -F -H -V -f -o" ;;
    "webhook-config") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "webhook-config get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "webhook-config create") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --topics --url --version -V -o" ;;
    "webhook-config enable") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --if-match --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "webhook-config disable") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --if-match --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "webhook-config topics") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "webhook-config topics set") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --disabled --guided --help --if-match --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --url --version -V -o" ;;
    "webhook-config topics remove") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --if-match --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version --yes -V -o -y" ;;
    "webhook-config regenerate-key") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --if-match --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version --yes -V -o -y" ;;
    "webhook-config diff") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --file --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version -V -f -o" ;;
    "webhook-config apply") echo "--allow-private-url --auth-url --base-url --ca-file --columns --debug --file --guided --help --if-match --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version --yes -V -f -o -y" ;;
    "webhook-config delete") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --if-match --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --org --output --profile --sandbox --slurp --timeout --version --yes -V -o -y" ;;
    "webhook") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "webhook listen") echo "--auth-url --base-url --ca-file --columns --debug --forward-to --guided --help --host --insecure --jq --json --key --key-env --log-format --max-events --max-retries --max-retry-wait --no-color --no-input --output --port --previous-key --profile --request-timeout --sandbox --slurp --strict --timeout --version -V -o" ;;
    "webhook trigger") echo "--auth-url --base-url --ca-file --columns --debug --guided --hardware-id --help --insecure --jq --json --key --key-env --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --to --version -V -o" ;;
    "history") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --since --slurp --timeout --version --where -V -o" ;;
    "auth") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "auth login") echo "--auth-url --base-url --ca-file --client-id --client-secret-stdin --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --scopes --slurp --timeout --version -V -o" ;;
    "auth status") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "auth token") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --scope --slurp --timeout --version -V -o" ;;
    "auth logout") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "config") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "config list") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "config get") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "config set") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "config unset") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "config profiles") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "config use") echo "--auth-url --base-url --ca-file --columns --create --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "alias") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "alias set") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --shell --slurp --timeout --version -V -o" ;;
    "alias list") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "alias delete") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "extension") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "extension list") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "sandbox") echo "--allow-private-webhooks --auth-url --base-url --ca-file --columns --control-token --debug --devices --emit-rate --fault --fault-rate --guided --help --host --insecure --journal-size --jq --json --latency --log-format --max-retries --max-retry-wait --no-color --no-input --output --port --profile --propagation --rate-limit --sandbox --scenario --seed --slurp --state --telemetry-rate --timeout --tls --token-ttl --version -V -o" ;;
    "sandbox reset") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --state --timeout --version -V -o" ;;
    "sandbox emit") echo "--auth-url --base-url --ca-file --columns --count --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --organization-id --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "sandbox fault") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "sandbox fault add") echo "--auth-url --base-url --ca-file --client-id --code --columns --debug --delay --description --drop --guided --hardware-id --help --insecure --jq --json --log-format --malformed --max-retries --max-retry-wait --method --no-color --no-input --operation-id --output --path --probability --profile --retry-after --sandbox --slurp --status --timeout --times --truncate --version -V -o" ;;
    "sandbox fault list") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "sandbox fault clear") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "sandbox requests") echo "--auth-url --base-url --bodies --ca-file --client-id --columns --debug --guided --hardware-id --help --insecure --jq --json --limit --log-format --max-retries --max-retry-wait --no-color --no-input --operation-id --output --profile --sandbox --slurp --status --timeout --version -V -o" ;;
    "completion") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "help") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "help reference") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --man-dir --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
    "help select") echo "--auth-url --base-url --ca-file --columns --debug --guided --help --insecure --jq --json --log-format --max-retries --max-retry-wait --no-color --no-input --output --profile --sandbox --slurp --timeout --version -V -o" ;;
  esac
}
# How the value of flag $2 of command $1 completes; nothing when the flag takes no value.
_fleetctl_value() {
  case "$1|$2" in
    "devices list|--organization-id") echo "lookup organization-id" ;;
    "devices list|--fleet-id") echo "lookup fleet-id" ;;
    "devices list|--hardware-id") echo "lookup hardware-id" ;;
    "devices list|--where") echo "lookup where" ;;
    "devices list|--limit" | "devices list|--cursor" | "devices list|--max-items" | "devices list|--sort") echo "any" ;;
    "devices assign|--vehicle-id" | "devices assign|--field" | "devices assign|--concurrency" | "devices assign|--resume") echo "any" ;;
    "devices assign|--from-file" | "devices assign|--journal") echo "file" ;;
    "devices assign|--where") echo "lookup where" ;;
    "devices unassign|--from-file" | "devices unassign|--journal") echo "file" ;;
    "devices unassign|--where") echo "lookup where" ;;
    "devices unassign|--concurrency" | "devices unassign|--resume") echo "any" ;;
    "devices reboot|--idempotency-key" | "devices reboot|--max-devices" | "devices reboot|--concurrency" | "devices reboot|--resume" | "devices reboot|--from-run" | "devices reboot|--only" | "devices reboot|--canary" | "devices reboot|--canary-wait" | "devices reboot|--wave" | "devices reboot|--wave-pause" | "devices reboot|--abort-if-failed" | "devices reboot|--wait-timeout" | "devices reboot|--report-time-field") echo "any" ;;
    "devices reboot|--from-file" | "devices reboot|--journal") echo "file" ;;
    "devices reboot|--fleet-id") echo "lookup fleet-id" ;;
    "devices reboot|--organization-id") echo "lookup organization-id" ;;
    "devices reboot|--where") echo "lookup where" ;;
    "devices wake-up|--idempotency-key" | "devices wake-up|--max-devices" | "devices wake-up|--concurrency" | "devices wake-up|--resume" | "devices wake-up|--from-run" | "devices wake-up|--only" | "devices wake-up|--canary" | "devices wake-up|--canary-wait" | "devices wake-up|--wave" | "devices wake-up|--wave-pause" | "devices wake-up|--abort-if-failed" | "devices wake-up|--wait-timeout" | "devices wake-up|--report-time-field") echo "any" ;;
    "devices wake-up|--from-file" | "devices wake-up|--journal") echo "file" ;;
    "devices wake-up|--fleet-id") echo "lookup fleet-id" ;;
    "devices wake-up|--organization-id") echo "lookup organization-id" ;;
    "devices wake-up|--where") echo "lookup where" ;;
    "devices events|--since" | "devices events|--from" | "devices events|--to" | "devices events|--type" | "devices events|--limit" | "devices events|--cursor" | "devices events|--max-items" | "devices events|--sort" | "devices events|--interval" | "devices events|--max-events" | "devices events|--until") echo "any" ;;
    "devices events|--checkpoint") echo "file" ;;
    "devices last-position|--interval") echo "any" ;;
    "devices media|--since" | "devices media|--from" | "devices media|--to" | "devices media|--limit" | "devices media|--cursor" | "devices media|--max-items" | "devices media|--sort") echo "any" ;;
    "devices media download|--dir") echo "directory" ;;
    "devices media download|--since" | "devices media download|--from" | "devices media download|--to") echo "any" ;;
    "fleets list|--organization-id") echo "lookup organization-id" ;;
    "fleets list|--limit" | "fleets list|--cursor" | "fleets list|--max-items" | "fleets list|--sort") echo "any" ;;
    "drivers list|--organization-id") echo "lookup organization-id" ;;
    "drivers list|--fleet-id") echo "lookup fleet-id" ;;
    "drivers list|--limit" | "drivers list|--cursor" | "drivers list|--max-items" | "drivers list|--sort") echo "any" ;;
    "drivers create|--organization-id") echo "lookup organization-id" ;;
    "drivers create|--fleet-id") echo "lookup fleet-id" ;;
    "drivers create|--first-name" | "drivers create|--last-name" | "drivers create|--email" | "drivers create|--phone" | "drivers create|--license-number" | "drivers create|--employee-id" | "drivers create|--field") echo "any" ;;
    "drivers create|--from-file") echo "file" ;;
    "drivers update|--first-name" | "drivers update|--last-name" | "drivers update|--email" | "drivers update|--phone" | "drivers update|--license-number" | "drivers update|--employee-id" | "drivers update|--field") echo "any" ;;
    "drivers update|--fleet-id") echo "lookup fleet-id" ;;
    "drivers update|--status") echo "words active inactive" ;;
    "drivers update|--from-file") echo "file" ;;
    "events search|--hardware-id") echo "lookup hardware-id" ;;
    "events search|--fleet-id") echo "lookup fleet-id" ;;
    "events search|--vehicle-id" | "events search|--type" | "events search|--since" | "events search|--from" | "events search|--to" | "events search|--limit" | "events search|--cursor" | "events search|--max-items" | "events search|--sort" | "events search|--interval" | "events search|--max-events" | "events search|--until") echo "any" ;;
    "events search|--checkpoint") echo "file" ;;
    "events media|--limit" | "events media|--cursor" | "events media|--max-items" | "events media|--sort") echo "any" ;;
    "vehicles list|--organization-id") echo "lookup organization-id" ;;
    "vehicles list|--fleet-id") echo "lookup fleet-id" ;;
    "vehicles list|--limit" | "vehicles list|--cursor" | "vehicles list|--max-items" | "vehicles list|--sort") echo "any" ;;
    "journeys list|--hardware-id") echo "lookup hardware-id" ;;
    "journeys list|--vehicle-id" | "journeys list|--since" | "journeys list|--from" | "journeys list|--to" | "journeys list|--limit" | "journeys list|--cursor" | "journeys list|--max-items" | "journeys list|--sort") echo "any" ;;
    "journeys list|--fleet-id") echo "lookup fleet-id" ;;
    "status|--fleet-id") echo "lookup fleet-id" ;;
    "status|--organization-id") echo "lookup organization-id" ;;
    "status|--stale-after" | "status|--since" | "status|--report-time-field" | "status|--fail-if" | "status|--watch" | "status|--on-breach") echo "any" ;;
    "status|--where") echo "lookup where" ;;
    "status|--list") echo "words stale never reporting" ;;
    "status|--checkpoint") echo "file" ;;
    "selection save|--where") echo "lookup where" ;;
    "organizations list|--limit" | "organizations list|--cursor" | "organizations list|--max-items" | "organizations list|--sort") echo "any" ;;
    "organizations descendants|--limit" | "organizations descendants|--cursor" | "organizations descendants|--max-items" | "organizations descendants|--sort") echo "any" ;;
    "api|-f" | "api|--raw-field" | "api|-F" | "api|--field" | "api|-H" | "api|--header" | "api|--idempotency-key") echo "any" ;;
    "api|--input") echo "file" ;;
    "webhook-config get|--org") echo "lookup organization-id" ;;
    "webhook-config create|--url") echo "any" ;;
    "webhook-config create|--topics") echo "list events alarms media live_gps journeys" ;;
    "webhook-config create|--org") echo "lookup organization-id" ;;
    "webhook-config enable|--org") echo "lookup organization-id" ;;
    "webhook-config enable|--if-match") echo "any" ;;
    "webhook-config disable|--org") echo "lookup organization-id" ;;
    "webhook-config disable|--if-match") echo "any" ;;
    "webhook-config topics set|--url" | "webhook-config topics set|--if-match") echo "any" ;;
    "webhook-config topics set|--org") echo "lookup organization-id" ;;
    "webhook-config topics remove|--org") echo "lookup organization-id" ;;
    "webhook-config topics remove|--if-match") echo "any" ;;
    "webhook-config regenerate-key|--org") echo "lookup organization-id" ;;
    "webhook-config regenerate-key|--if-match") echo "any" ;;
    "webhook-config diff|-f" | "webhook-config diff|--file") echo "file" ;;
    "webhook-config diff|--org") echo "lookup organization-id" ;;
    "webhook-config apply|-f" | "webhook-config apply|--file") echo "file" ;;
    "webhook-config apply|--org") echo "lookup organization-id" ;;
    "webhook-config apply|--if-match") echo "any" ;;
    "webhook-config delete|--org") echo "lookup organization-id" ;;
    "webhook-config delete|--if-match") echo "any" ;;
    "webhook listen|--port" | "webhook listen|--host" | "webhook listen|--key" | "webhook listen|--key-env" | "webhook listen|--previous-key" | "webhook listen|--forward-to" | "webhook listen|--max-events" | "webhook listen|--request-timeout") echo "any" ;;
    "webhook trigger|--to" | "webhook trigger|--key" | "webhook trigger|--key-env") echo "any" ;;
    "webhook trigger|--hardware-id") echo "lookup hardware-id" ;;
    "history|--since" | "history|--where") echo "any" ;;
    "auth login|--client-id") echo "any" ;;
    "auth login|--scopes") echo "list organizations_read fleets_read vehicles_read drivers_read devices_read events_read journeys_read live_positions_read webhooks_read fleets_write vehicles_write drivers_write devices_write video_requests_write live_streams_write playback_sessions_write webhooks_write device_commands_reboot device_commands_wake_up" ;;
    "auth login|--organization-id") echo "lookup organization-id" ;;
    "auth token|--scope") echo "words organizations_read fleets_read vehicles_read drivers_read devices_read events_read journeys_read live_positions_read webhooks_read fleets_write vehicles_write drivers_write devices_write video_requests_write live_streams_write playback_sessions_write webhooks_write device_commands_reboot device_commands_wake_up" ;;
    "sandbox|--host" | "sandbox|--port" | "sandbox|--seed" | "sandbox|--devices" | "sandbox|--telemetry-rate" | "sandbox|--journal-size" | "sandbox|--rate-limit" | "sandbox|--fault-rate" | "sandbox|--latency" | "sandbox|--token-ttl" | "sandbox|--emit-rate" | "sandbox|--propagation" | "sandbox|--control-token") echo "any" ;;
    "sandbox|--state" | "sandbox|--scenario" | "sandbox|--fault") echo "file" ;;
    "sandbox reset|--state") echo "file" ;;
    "sandbox emit|--count") echo "any" ;;
    "sandbox emit|--organization-id") echo "lookup organization-id" ;;
    "sandbox fault add|--operation-id" | "sandbox fault add|--path" | "sandbox fault add|--client-id" | "sandbox fault add|--code" | "sandbox fault add|--retry-after" | "sandbox fault add|--delay" | "sandbox fault add|--probability" | "sandbox fault add|--times" | "sandbox fault add|--description") echo "any" ;;
    "sandbox fault add|--method") echo "words GET PUT POST PATCH DELETE" ;;
    "sandbox fault add|--hardware-id") echo "lookup hardware-id" ;;
    "sandbox fault add|--status") echo "words 400 401 403 404 409 412 422 429 500 503" ;;
    "sandbox requests|--operation-id" | "sandbox requests|--client-id" | "sandbox requests|--status" | "sandbox requests|--limit") echo "any" ;;
    "sandbox requests|--hardware-id") echo "lookup hardware-id" ;;
    "help reference|--man-dir") echo "directory" ;;
    *"|--profile") echo "lookup profile" ;;
    *"|--base-url" | *"|--auth-url" | *"|--columns" | *"|--jq" | *"|--timeout" | *"|--max-retries" | *"|--max-retry-wait") echo "any" ;;
    *"|-o" | *"|--output") echo "words table wide json ndjson csv yaml" ;;
    *"|--log-format") echo "words text json" ;;
    *"|--ca-file") echo "file" ;;
  esac
}
# How positional argument $2 (from 0) of command $1 completes.
_fleetctl_argument() {
  case "$1|$2" in
    "|0") echo "lookup alias-or-extension" ;;
    "devices get|0") echo "lookup hardware-id" ;;
    "devices assign|0") echo "lookup hardware-id" ;;
    "devices unassign|0") echo "lookup hardware-id" ;;
    "devices reboot|"*) echo "lookup hardware-id" ;;
    "devices wake-up|"*) echo "lookup hardware-id" ;;
    "devices events|0") echo "lookup hardware-id" ;;
    "devices last-reported|0") echo "lookup hardware-id" ;;
    "devices last-position|0") echo "lookup hardware-id" ;;
    "devices media|0") echo "lookup hardware-id" ;;
    "devices media download|0") echo "lookup hardware-id" ;;
    "fleets get|0") echo "lookup fleet-id" ;;
    "selection show|0") echo "lookup selection" ;;
    "selection delete|0") echo "lookup selection" ;;
    "organizations get|0") echo "lookup organization-id" ;;
    "organizations descendants|0") echo "lookup organization-id" ;;
    "api|0") echo "words GET POST PUT PATCH DELETE" ;;
    "webhook-config topics set|0") echo "words events alarms media live_gps journeys" ;;
    "webhook-config topics remove|0") echo "words events alarms media live_gps journeys" ;;
    "webhook trigger|0") echo "words live.gps journey.closed alarm.triggered event.generic media.ready" ;;
    "config get|0") echo "words base_url auth_url client_id client_secret client_secret_command scopes organization_id ca_file ledger_file" ;;
    "config set|0") echo "words base_url auth_url client_id client_secret client_secret_command scopes organization_id ca_file ledger_file" ;;
    "config unset|0") echo "words base_url auth_url client_id client_secret client_secret_command scopes organization_id ca_file ledger_file" ;;
    "config use|0") echo "lookup profile" ;;
    "alias delete|0") echo "lookup alias" ;;
    "sandbox emit|0") echo "words live.gps journey.closed alarm.triggered event.generic media.ready" ;;
    "completion|0") echo "words bash zsh fish" ;;
  esac
}
# From the words before the cursor: the command path, a flag still waiting for its value, the arguments so far.
_fleetctl_context() {
  local word dashdash=""
  cmdpath="" pending="" argindex=0
  for word in "$@"; do
    if [[ -n "$pending" ]]; then
      [[ "$word" == "=" ]] || pending=""
      continue
    fi
    if [[ -n "$dashdash" ]]; then argindex=$((argindex + 1)); continue; fi
    if [[ "$word" == "--" ]]; then dashdash=1; continue; fi
    if [[ "$word" == -?* ]]; then
      if [[ "$word" != *=* && -n "$(_fleetctl_value "$cmdpath" "$word")" ]]; then pending="$word"; fi
      continue
    fi
    if [[ $argindex -eq 0 && " $(_fleetctl_subcommands "$cmdpath") " == *" $word "* ]]; then
      cmdpath="${cmdpath:+$cmdpath }$word"
    else
      argindex=$((argindex + 1))
    fi
  done
}
# bash splits words at the characters of COMP_WORDBREAKS (':' in a URL or an id, '=' after a flag): join the
# pieces typed without a space between them, into the words the command will see (words, cword).
_fleetctl_join_words() {
  local i rest gap line="${COMP_LINE:0:COMP_POINT}" pos=0
  words=() cword=-1
  for (( i = 0; i <= COMP_CWORD; i++ )); do
    rest="${line:pos}"
    gap="${rest%%[![:space:]]*}"
    if [[ $i -gt 0 && -z "$gap" ]]; then
      words[cword]+="${COMP_WORDS[i]}"
    else
      words+=("${COMP_WORDS[i]}")
      cword=$((cword + 1))
    fi
    pos=$((pos + ${#gap} + ${#COMP_WORDS[i]}))
  done
}
# Fills COMPREPLY with the values of a spec (kind, then its words) that start with $1.
_fleetctl_offer() {
  local cur="$1" kind="$2" line head=""
  shift 2
  case "$kind" in
    words) mapfile -t COMPREPLY < <(compgen -W "$*" -- "$cur") ;;
    list)
      [[ "$cur" == *,* ]] && head="${cur%,*},"
      mapfile -t COMPREPLY < <(compgen -P "$head" -W "$*" -- "${cur##*,}") ;;
    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    directory) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    lookup)
      while IFS= read -r line; do
        [[ -n "$line" ]] && COMPREPLY+=("${line%%$'\t'*}")
      done < <("${words[0]}" __complete "$1" -- "${words[@]:1:cword-1}" "$cur" 2>/dev/null </dev/null) ;;
  esac
}
# bash replaces only the last piece of the word ($2): each candidate for the value $1 loses what comes before it,
# or, when that piece is the ':' or '=' just typed, starts with it.
_fleetctl_fit() {
  local cur="$1" piece="$2" keep i
  if [[ "$cur" == *"$piece" ]]; then
    keep=$((${#cur} - ${#piece}))
    if [[ $keep -gt 0 ]]; then
      for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]:keep}"; done
    fi
  else
    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="$piece${COMPREPLY[i]}"; done
  fi
}
_fleetctl() {
  local words cword cur cmdpath pending argindex spec
  COMPREPLY=()
  _fleetctl_join_words
  cur="${words[cword]}"
  _fleetctl_context "${words[@]:1:cword-1}"
  if [[ -z "$pending" && "$cur" == -*=* ]]; then
    pending="${cur%%=*}"
    cur="${cur#*=}"
  fi
  if [[ -n "$pending" ]]; then
    spec="$(_fleetctl_value "$cmdpath" "$pending")"
  elif [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_fleetctl_options "$cmdpath")" -- "$cur")
  elif [[ $argindex -eq 0 && -n "$(_fleetctl_subcommands "$cmdpath")" ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_fleetctl_subcommands "$cmdpath")" -- "$cur")
    # the first word may also be an alias: a lookup, whose candidates are added to the commands
    spec="$(_fleetctl_argument "$cmdpath" 0)"
  else
    spec="$(_fleetctl_argument "$cmdpath" "$argindex")"
  fi
  # shellcheck disable=SC2086 # the spec is a kind followed by its words
  [[ -n "$spec" ]] && _fleetctl_offer "$cur" $spec
  _fleetctl_fit "$cur" "${COMP_WORDS[COMP_CWORD]}"
  return 0
}
complete -F _fleetctl fleetctl
