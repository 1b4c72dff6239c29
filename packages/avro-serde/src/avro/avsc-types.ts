import { createRequire } from 'node:module'
import type * as Avsc from 'avsc'

/** The part of avsc this package uses: `Type` and the type classes (`avro.types`). */
export interface AvscTypes {
  readonly Type: typeof Avsc.Type
  readonly types: typeof Avsc.types
}

/**
 * avsc's `Type` and type classes, taken from `avsc/lib/types.js`: the module whose exports `import avro from 'avsc'`
 * hands out as `avro.Type` and `avro.types`, so the classes are the very same (Node's CommonJS cache holds one
 * instance of the file). avsc's main module would also load its file containers, streams and RPC services, which this
 * package does not use. avsc has no `exports` map and `dependencies.avsc` pins its version exactly, so the path is
 * fixed; avsc-surface.ts checks the shape of what is taken from it.
 */
const lib = createRequire(import.meta.url)('avsc/lib/types.js') as {
  Type: typeof Avsc.Type
  builtins: typeof Avsc.types
}

export const avro: AvscTypes = Object.freeze({ Type: lib.Type, types: lib.builtins })
