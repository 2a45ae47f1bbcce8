/**
 * `@quire/engine/net`: the network machinery under the remote loader, for programs that fetch or
 * send on their own with the same rules (the Quire service's upload delivery and its per-plan
 * remote loader use it): the address policy and destination check, the pinned exchange, the
 * settings. Most users want `remoteLoader` from the main entry instead.
 */
export { resolveDestination, type Destination } from './destination.js';
export { DestinationRefused, DestinationUnchecked, type RefusalReason } from './destination-errors.js';
export { exchange, ExchangeError } from './pinned-exchange.js';
export { BUILT_IN_BLOCKED_DOMAINS, DEFAULT_NET_SETTINGS, isDnsServer, normalizeDomain, type NetSettings } from './net-settings.js';
export { RemoteLoader } from './remote-loader.js';
export { DEFAULT_USER_AGENT } from './remote-loader-options.js';
export { RESOURCE_SCHEMES } from './resource-schemes.js';
