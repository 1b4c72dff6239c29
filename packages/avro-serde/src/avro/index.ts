export type { AvroCodec } from './codec.js'
export { createCodec, isMissingNamedType } from './codec.js'
export type {
  AvroEncoding,
  AvroOptions,
  AvroTypeHook,
  LogicalTypeConstructor,
  LongMode,
  NormalizedAvroOptions,
  UnionMode,
} from './options.js'
export { normalizeAvroOptions } from './options.js'
