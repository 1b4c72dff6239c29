export type { AnyDeserializerOptions } from './any-deserializer.js'
export { AnyDeserializer } from './any-deserializer.js'
export type { SchemaKind } from './schema-kind.js'
export { schemaKindOf, schemaKindOfText } from './schema-kind.js'
