// `@x/registry-client/cache`: the LRU cache with single flight the client keeps its schemas in, for the serdes'
// own caches of parsed schemas (`@x/serde-core`). Not part of the client's root API.
export type { SingleFlightCacheOptions } from './single-flight-cache.js'
export { SingleFlightCache } from './single-flight-cache.js'
