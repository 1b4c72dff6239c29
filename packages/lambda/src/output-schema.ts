import type { StandardSchemaV1 } from '@standard-schema/spec'
import { DeserializationError } from '@x/errors'
import type { MessageField } from '@x/wire-format'

/** How many issues a refused value's message names; the error's `issues` holds them all. */
const NAMED_ISSUES = 5

/** A decoded field that its Standard Schema refused: a `DeserializationError` with the schema's `issues`. */
export interface OutputSchemaError extends DeserializationError {
  readonly issues: readonly StandardSchemaV1.Issue[]
}

/**
 * A decoded field parsed by a Standard Schema (Zod, Valibot, ArkType, …): its output, or a `DeserializationError`
 * naming the issues (poison to `readErrorKind`: the same record is refused on every retry).
 */
export async function parseOutput(
  schema: StandardSchemaV1,
  value: unknown,
  field: MessageField,
): Promise<unknown> {
  let result = schema['~standard'].validate(value)
  if (result instanceof Promise) result = await result
  if (result.issues === undefined) return result.value
  throw outputRefused(result.issues, field)
}

function outputRefused(issues: readonly StandardSchemaV1.Issue[], field: MessageField): OutputSchemaError {
  const named = issues
    .slice(0, NAMED_ISSUES)
    .map((issue) => {
      const path = issue.path?.map((segment) => String(typeof segment === 'object' ? segment.key : segment))
      return path === undefined || path.length === 0 ? issue.message : `${path.join('.')}: ${issue.message}`
    })
    .join('; ')
  const more = issues.length > NAMED_ISSUES ? ` (and ${issues.length - NAMED_ISSUES} more)` : ''
  const error = new DeserializationError(
    `The decoded ${field} does not match its output schema: ${named}${more}`,
  )
  Object.defineProperty(error, 'issues', { value: Object.freeze([...issues]), enumerable: true })
  return error as OutputSchemaError
}
