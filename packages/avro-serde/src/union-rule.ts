// `@x/avro-serde/union-rule`: when `unions: 'auto'` unwraps a union, for tools that describe what the deserializer
// returns (code generation) without loading avsc.
export type { ValueKind } from './avro/logical-base.js'
export { unwrapsUnion } from './avro/union-rule.js'
