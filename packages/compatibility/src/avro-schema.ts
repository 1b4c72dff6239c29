export { normalizeAvro, writeAvro } from './avro/canonical.js'
export type { AvroField, AvroNamed, AvroProps, AvroType } from './avro/schema.js'
export { AvroSchemaError, parseAvro } from './avro/schema.js'
