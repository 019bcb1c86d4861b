// The variable that tells an extension's fleetctl where to ask for tokens: the socket of the token broker
// (token-broker.ts) of the fleetctl that runs the extension. A leaf, so `auth token` names it without loading the broker.
export const BROKER_VARIABLE = 'FLEETCTL_TOKEN_BROKER';
