import { describeValue, invalidConfigError } from '@x/errors'

/**
 * How many bytes a frame gives the schema id after the magic byte: `4` (Apicurio 3's default and Confluent's,
 * `Default4ByteIdHandler`) or `8` (Apicurio 2.x's default, 3.x's `Legacy8ByteIdHandler`: the id as a big-endian
 * long).
 */
export type IdSize = 4 | 8

/**
 * How a reader takes the id of a frame: {@link IdSize}, or `'auto'` as Apicurio's Java `OptimisticFallbackIdHandler`
 * reads (made for v2 → v3 migrations): the first 4 id bytes, unless they are all zero and at least 4 more bytes
 * follow, then 8. `'auto'` assumes ids in 1 … 2^31 − 1 (see the package README for what the bytes allow).
 */
export type ReadIdSize = IdSize | 'auto'

/**
 * @internal The `idSize` option: `4` when undefined, `4` or `8` (and `'auto'` when `allowAuto`), else INVALID_CONFIG
 * naming `what`.
 */
export function checkIdSize(value: unknown, allowAuto: true, what: string): ReadIdSize
export function checkIdSize(value: unknown, allowAuto: false, what: string): IdSize
export function checkIdSize(value: unknown, allowAuto: boolean, what: string): ReadIdSize {
  if (value === undefined) return 4
  if (value === 4 || value === 8 || (allowAuto && value === 'auto')) return value
  throw invalidConfigError(
    `${what} must be 4 or 8${allowAuto ? " or 'auto'" : value === 'auto' ? " ('auto' is for deserializers only: a writer must choose)" : ''}, got ${describeValue(value)}`,
  )
}
