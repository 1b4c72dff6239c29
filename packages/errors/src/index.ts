export type { ErrorCode, MisuseErrorCode, SerdeErrorCode } from './codes.js'
export { ERROR_CODES } from './codes.js'
export type { DataIssue, DataRangeError, PathSegment } from './data-issues.js'
export {
  dataIssue,
  dataIssuesError,
  fieldPath,
  firstItems,
  formatPath,
  indexPath,
  keyPath,
  unsafeIntegerError,
} from './data-issues.js'
export { describeKind, describeValue, messageOf } from './describe.js'
export type {
  AuthenticationErrorOptions,
  DeserializationErrorOptions,
  IdType,
  RegistryConnectionErrorOptions,
  SchemaNotFoundErrorOptions,
  SchemaRegistrationErrorOptions,
} from './errors.js'
export {
  AuthenticationError,
  ClientClosedError,
  DeserializationError,
  RegistryConnectionError,
  ResolverError,
  SchemaNotFoundError,
  SchemaRegistrationError,
  SerializationError,
} from './errors.js'
export type { FailedMessage, FailedMessageContext } from './failed-message.js'
export { failedMessageOf, recordFailedMessage } from './failed-message.js'
export type { CodedRangeError, CodedTypeError, DataTypeError } from './misuse.js'
export { idOutOfRangeError, invalidConfigError, invalidDataError } from './misuse.js'
export { REDACTED, redactSecrets } from './redact-secrets.js'
export { redactUrl } from './redact-url.js'
export type { RuleViolation, RuleViolationErrorOptions } from './rule-violation-error.js'
export { RuleViolationError } from './rule-violation-error.js'
export type { SerdeErrorOptions } from './serde-error.js'
export { isSerdeError, SERDE_ERROR_BRAND, SerdeError } from './serde-error.js'
