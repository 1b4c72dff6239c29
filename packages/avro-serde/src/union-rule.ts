// `@x/avro-serde/union-rule`: when `unions: 'auto'` unwraps a union and which branch kind a value is, for tools that
// describe what the deserializer returns or print its values (code generation, the CLI) without loading avsc.
export type { ValueKind } from './avro/logical-base.js'
export { unwrapsUnion } from './avro/union-rule.js'
export { valueKindOf } from './avro/value-kind.js'
