/**
 * Helpers the format packages of this family share for speed, and the list of undocumented Node APIs they rely on:
 * not part of the public API, changed in any release without notice.
 *
 * @internal
 * @packageDocumentation
 */

export type { NodeInternal } from './node-surface.js'
export { findNodeProblems, HAS_UTF8_SLICE, NODE_INTERNALS } from './node-surface.js'
export { DESERIALIZING, fetchById, SERIALIZING } from './registry-port.js'
export { normalizeRulesOptions } from './rules-options.js'
export { shortAsciiString } from './short-ascii.js'
export { isWellFormed, loneSurrogateProblem } from './well-formed.js'
