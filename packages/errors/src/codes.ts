/**
 * Stable codes of the library's own errors. They never change between releases: match on `code`, not on the
 * message text.
 */
export type SerdeErrorCode =
  | 'SCHEMA_NOT_FOUND'
  | 'REGISTRY_CONNECTION'
  | 'SCHEMA_REGISTRATION'
  | 'SERIALIZATION'
  | 'RESOLVER'
  | 'DESERIALIZATION'
  | 'AUTHENTICATION'
  | 'CLIENT_CLOSED'
  | 'NOT_PREPARED'
  | 'RULE_VIOLATION'

/** Codes carried by the standard `TypeError` / `RangeError` instances the library throws for misuse and bad data. */
export type MisuseErrorCode = 'INVALID_CONFIG' | 'INVALID_DATA' | 'ID_OUT_OF_RANGE'

/** Every code an error thrown by an `@x/*` package can carry. */
export type ErrorCode = SerdeErrorCode | MisuseErrorCode

/** The codes as constants, for `switch` statements and comparisons without string literals. */
export const ERROR_CODES = Object.freeze({
  SCHEMA_NOT_FOUND: 'SCHEMA_NOT_FOUND',
  REGISTRY_CONNECTION: 'REGISTRY_CONNECTION',
  SCHEMA_REGISTRATION: 'SCHEMA_REGISTRATION',
  SERIALIZATION: 'SERIALIZATION',
  RESOLVER: 'RESOLVER',
  DESERIALIZATION: 'DESERIALIZATION',
  AUTHENTICATION: 'AUTHENTICATION',
  CLIENT_CLOSED: 'CLIENT_CLOSED',
  NOT_PREPARED: 'NOT_PREPARED',
  RULE_VIOLATION: 'RULE_VIOLATION',
  INVALID_CONFIG: 'INVALID_CONFIG',
  INVALID_DATA: 'INVALID_DATA',
  ID_OUT_OF_RANGE: 'ID_OUT_OF_RANGE',
} as const satisfies { [K in ErrorCode]: K })
