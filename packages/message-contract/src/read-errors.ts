import { isSerdeError } from '@x/errors'

/**
 * What a consumer does with an error of reading a message: `'poison'` — the message will never decode (a
 * `DeserializationError`: a bad frame, bytes that do not match the schema, a refused header or key; or a
 * `SchemaNotFoundError`: an unknown id; or a `RuleViolationError`: a record a data-contract rule refused, whatever
 * the rule's action, `DLQ` or `ERROR`, since the same record is refused again on every retry), so it is dead-lettered or reported and the consumer moves on; `'outage'`
 * — anything else (the registry unreachable, refused credentials, misuse), thrown for the client to retry the
 * message and commit nothing past it.
 */
export type ReadErrorKind = 'poison' | 'outage'

/** Classifies an error of reading a consumed message (see {@link ReadErrorKind}); every adapter and the CLI use it. */
export function readErrorKind(error: unknown): ReadErrorKind {
  return isSerdeError(error, 'DESERIALIZATION') ||
    isSerdeError(error, 'SCHEMA_NOT_FOUND') ||
    isSerdeError(error, 'RULE_VIOLATION')
    ? 'poison'
    : 'outage'
}
