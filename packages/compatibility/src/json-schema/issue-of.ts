import { fieldPath, indexPath } from '@x/errors'
import type { CompatibilityIssue } from '../format-checker.js'
import type { Difference } from './diff-context.js'
import { type DiffType, descriptionOf } from './diff-types.js'

const SENTENCES: Partial<Record<DiffType, (found: Difference) => string>> = {
  SUBSCHEMA_TYPE_CHANGED: () =>
    'The schema here is of another kind than before, so data the old one accepted is refused.',
  OBJECT_TYPE_REQUIRED_PROPERTIES_MEMBER_ADDED: (found) =>
    `The property ${quoted(found.after)} is now required; data written without it is refused.`,
  OBJECT_TYPE_PROPERTY_SCHEMAS_NARROWED: () =>
    'A property was added (or removed) where the object allowed any other property, so a value the old schema accepted there may now be refused.',
  OBJECT_TYPE_PROPERTY_SCHEMAS_CHANGED: () =>
    'A property was added or removed whose schema does not match the schema of additional properties.',
  OBJECT_TYPE_ADDITIONAL_PROPERTIES_TRUE_TO_FALSE: () => 'Additional properties are no longer allowed.',
  OBJECT_TYPE_ADDITIONAL_PROPERTIES_NARROWED: () =>
    'Additional properties, allowed freely before, must now match a schema.',
  OBJECT_TYPE_ADDITIONAL_PROPERTIES_SCHEMA_CHANGED: () =>
    'The schema of additional properties no longer accepts what it accepted.',
  ENUM_TYPE_VALUES_MEMBER_REMOVED: (found) =>
    `The value ${found.before ?? ''} is no longer one of the enum's values.`.replace('value  is', 'value is'),
  CONST_TYPE_VALUE_CHANGED: (found) =>
    `The constant changed from ${found.before ?? '?'} to ${found.after ?? '?'}.`,
  NUMBER_TYPE_INTEGER_REQUIRED_FALSE_TO_TRUE: () => 'The value must now be an integer.',
  NUMBER_TYPE_MINIMUM_ADDED: (found) => `A minimum of ${found.after ?? '?'} was added.`,
  NUMBER_TYPE_MINIMUM_INCREASED: (found) =>
    `The minimum rose from ${found.before ?? '?'} to ${found.after ?? '?'}.`,
  NUMBER_TYPE_MAXIMUM_ADDED: (found) => `A maximum of ${found.after ?? '?'} was added.`,
  NUMBER_TYPE_MAXIMUM_DECREASED: (found) =>
    `The maximum fell from ${found.before ?? '?'} to ${found.after ?? '?'}.`,
  NUMBER_TYPE_MULTIPLE_OF_ADDED: (found) => `The value must now be a multiple of ${found.after ?? '?'}.`,
  NUMBER_TYPE_MULTIPLE_OF_UPDATED_IS_NOT_DIVISIBLE: (found) =>
    `The value must now be a multiple of ${found.after ?? '?'}, which ${found.before ?? '?'} is not a multiple of.`,
  STRING_TYPE_MIN_LENGTH_ADDED: (found) => `A minimum length of ${found.after ?? '?'} was added.`,
  STRING_TYPE_MIN_LENGTH_INCREASED: (found) =>
    `The minimum length rose from ${found.before ?? '?'} to ${found.after ?? '?'}.`,
  STRING_TYPE_MAX_LENGTH_ADDED: (found) => `A maximum length of ${found.after ?? '?'} was added.`,
  STRING_TYPE_MAX_LENGTH_DECREASED: (found) =>
    `The maximum length fell from ${found.before ?? '?'} to ${found.after ?? '?'}.`,
  STRING_TYPE_PATTERN_ADDED: (found) => `The value must now match the pattern ${quoted(found.after)}.`,
  STRING_TYPE_PATTERN_CHANGED: (found) =>
    `The pattern changed from ${quoted(found.before)} to ${quoted(found.after)}.`,
  COMBINED_TYPE_SUBSCHEMA_NOT_COMPATIBLE: () =>
    'A subschema of the combination has no compatible counterpart in the new one.',
}

function quoted(value: string | undefined): string {
  return JSON.stringify(value ?? '')
}

/** The path of a difference in the data-error notation: `properties.a.required`, `items[0]`. */
export function pathOf(steps: readonly string[]): string {
  let path = ''
  for (const step of steps) {
    if (step.startsWith('[')) {
      path = fieldPath(path, step)
      continue
    }
    const slash = step.indexOf('/')
    if (slash === -1) {
      path = fieldPath(path, step)
      continue
    }
    const keyword = step.slice(0, slash)
    const name = step.slice(slash + 1)
    path = fieldPath(path, keyword)
    path = keyword === 'items' && /^\d+$/.test(name) ? indexPath(path, Number(name)) : fieldPath(path, name)
  }
  return path
}

/** The difference as an issue: where, a sentence, and the cause the registry lists for it. */
export function issueOf(found: Difference): CompatibilityIssue {
  const description = descriptionOf(found.type)
  const sentence = SENTENCES[found.type]?.(found) ?? `${description}.`
  // the registry writes the schema itself as `/`
  return {
    path: pathOf(found.steps),
    message: sentence,
    cause: { description, context: found.context === '' ? '/' : found.context },
  }
}
