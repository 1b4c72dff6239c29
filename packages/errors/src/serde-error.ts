import type { SerdeErrorCode } from './codes.js'
import type { FailedMessageContext } from './failed-message.js'

/**
 * The brand every `SerdeError` carries. It is a registered symbol, so it is the same in every copy of this package
 * that ends up installed: `isSerdeError()` keeps working where `instanceof` does not.
 */
export const SERDE_ERROR_BRAND: unique symbol = Symbol.for('@x/errors.SerdeError') as never

/** Options every library error accepts: the ES2022 `cause`. */
export interface SerdeErrorOptions {
  /** What went wrong underneath. Not enumerable, so logging the error does not dump it. */
  cause?: unknown
}

/** Context fields `toJSON()` shows, besides `name`, `code` and `message` (bigints as decimal strings). */
const SAFE_FIELDS = [
  'groupId',
  'artifactId',
  'version',
  'idType',
  'idValue',
  'url',
  'status',
  'schemaId',
] as const

/**
 * Base class of every error of the `@x/*` packages. It has a `name` equal to its class name, a stable `code`
 * (see `SerdeErrorCode`) and an ES2022 `cause`. Its enumerable fields hold only plain, safe values (ids, a URL
 * without credentials, an HTTP status): it is safe to log as is.
 */
export class SerdeError extends Error {
  override name = 'SerdeError'
  /** A stable, machine-readable code. */
  readonly code: SerdeErrorCode
  /** Raised while deserializing: the bytes given (non-enumerable; see `failedMessageOf`). */
  declare readonly payload?: Uint8Array
  /** Raised by `deserializeMessage`: the message headers given (non-enumerable). */
  declare readonly headers?: Readonly<Record<string, unknown>>
  /** Raised while deserializing: the call's topic and field (non-enumerable). */
  declare readonly context?: FailedMessageContext

  constructor(code: SerdeErrorCode, message: string, options?: SerdeErrorOptions) {
    // Only a real cause is attached: an own `cause: undefined` would show as `[cause]: undefined` in util.inspect.
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined)
    this.code = code
    Object.defineProperty(this, SERDE_ERROR_BRAND, { value: true, enumerable: false })
  }

  /** A plain object with `name`, `code`, `message` and the safe context fields; never the cause. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message }
    for (const key of SAFE_FIELDS) {
      const value = (this as Record<string, unknown>)[key]
      if (value !== undefined) out[key] = typeof value === 'bigint' ? value.toString() : value
    }
    return out
  }
}

/**
 * True for any error of the `@x/*` packages, also one thrown by another installed copy of `@x/errors`.
 * Pass a code to test for one kind: `isSerdeError(err, 'SCHEMA_NOT_FOUND')`.
 */
export function isSerdeError(value: unknown, code?: SerdeErrorCode): value is SerdeError {
  if (typeof value !== 'object' || value === null) return false
  if ((value as Record<symbol, unknown>)[SERDE_ERROR_BRAND] !== true) return false
  return code === undefined || (value as { code?: unknown }).code === code
}
