import { compareDecimal, isMultipleOf } from './decimal.js'
import type { DiffContext } from './diff-context.js'
import { addedRemoved, booleanTransition, integerChanged, numberChanged, objectChanged } from './diff-util.js'
import type { NumberNode, StringNode } from './schema-model.js'

function text(value: unknown): string | undefined {
  if (value === undefined) return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * The differences between two string schemas. A limit, pattern or format is compared only when the new schema has
 * it: one the new schema drops is not a difference, as in Apicurio.
 */
export function diffString(ctx: DiffContext, before: StringNode, after: StringNode): void {
  objectChanged(
    ctx.sub('contentEncoding'),
    text(before.unprocessed.contentEncoding),
    text(after.unprocessed.contentEncoding),
    [
      'STRING_TYPE_CONTENT_ENCODING_ADDED',
      'STRING_TYPE_CONTENT_ENCODING_REMOVED',
      'STRING_TYPE_CONTENT_ENCODING_CHANGED',
    ],
  )
  objectChanged(
    ctx.sub('contentMediaType'),
    text(before.unprocessed.contentMediaType),
    text(after.unprocessed.contentMediaType),
    [
      'STRING_TYPE_CONTENT_MEDIA_TYPE_ADDED',
      'STRING_TYPE_CONTENT_MEDIA_TYPE_REMOVED',
      'STRING_TYPE_CONTENT_MEDIA_TYPE_CHANGED',
    ],
  )
  if (after.minLength !== undefined) {
    integerChanged(ctx.sub('minLength'), before.minLength, after.minLength, [
      'STRING_TYPE_MIN_LENGTH_ADDED',
      'STRING_TYPE_MIN_LENGTH_REMOVED',
      'STRING_TYPE_MIN_LENGTH_INCREASED',
      'STRING_TYPE_MIN_LENGTH_DECREASED',
    ])
  }
  if (after.maxLength !== undefined) {
    integerChanged(ctx.sub('maxLength'), before.maxLength, after.maxLength, [
      'STRING_TYPE_MAX_LENGTH_ADDED',
      'STRING_TYPE_MAX_LENGTH_REMOVED',
      'STRING_TYPE_MAX_LENGTH_INCREASED',
      'STRING_TYPE_MAX_LENGTH_DECREASED',
    ])
  }
  if (after.pattern !== undefined) {
    objectChanged(ctx.sub('pattern'), before.pattern, after.pattern, [
      'STRING_TYPE_PATTERN_ADDED',
      'STRING_TYPE_PATTERN_REMOVED',
      'STRING_TYPE_PATTERN_CHANGED',
    ])
  }
  if (after.format !== undefined) {
    objectChanged(ctx.sub('format'), before.format, after.format, [
      'STRING_TYPE_FORMAT_ADDED',
      'STRING_TYPE_FORMAT_REMOVED',
      'STRING_TYPE_FORMAT_CHANGED',
    ])
  }
}

/**
 * The differences between two number schemas: integer or not (a `multipleOf` of 1 counts as integer in the old
 * schema), the lower and upper limits with their exclusiveness (draft 4's flag or draft 6's limit), `multipleOf`.
 */
export function diffNumber(ctx: DiffContext, before: NumberNode, after: NumberNode): void {
  const beforeInteger =
    before.requiresInteger ||
    (before.multipleOf !== undefined && compareDecimal(before.multipleOf, '1') === 0)
  booleanTransition(ctx.sub('type'), beforeInteger, after.requiresInteger, [
    'NUMBER_TYPE_INTEGER_REQUIRED_FALSE_TO_TRUE',
    'NUMBER_TYPE_INTEGER_REQUIRED_TRUE_TO_FALSE',
    'NUMBER_TYPE_INTEGER_REQUIRED_UNCHANGED',
  ])
  const sameMinimum = numberChanged(
    ctx.sub('minimum'),
    before.exclusiveMinimumLimit ?? before.minimum,
    after.exclusiveMinimumLimit ?? after.minimum,
    [
      'NUMBER_TYPE_MINIMUM_ADDED',
      'NUMBER_TYPE_MINIMUM_REMOVED',
      'NUMBER_TYPE_MINIMUM_INCREASED',
      'NUMBER_TYPE_MINIMUM_DECREASED',
    ],
  )
  if (sameMinimum) {
    booleanTransition(
      ctx.sub('exclusiveMinimum'),
      before.exclusiveMinimumLimit !== undefined || before.exclusiveMinimum,
      after.exclusiveMinimumLimit !== undefined || after.exclusiveMinimum,
      [
        'NUMBER_TYPE_IS_MINIMUM_EXCLUSIVE_FALSE_TO_TRUE',
        'NUMBER_TYPE_IS_MINIMUM_EXCLUSIVE_TRUE_TO_FALSE',
        'NUMBER_TYPE_IS_MINIMUM_EXCLUSIVE_UNCHANGED',
      ],
    )
  }
  const sameMaximum = numberChanged(
    ctx.sub('maximum'),
    before.exclusiveMaximumLimit ?? before.maximum,
    after.exclusiveMaximumLimit ?? after.maximum,
    [
      'NUMBER_TYPE_MAXIMUM_ADDED',
      'NUMBER_TYPE_MAXIMUM_REMOVED',
      'NUMBER_TYPE_MAXIMUM_INCREASED',
      'NUMBER_TYPE_MAXIMUM_DECREASED',
    ],
  )
  if (sameMaximum) {
    booleanTransition(
      ctx.sub('exclusiveMaximum'),
      before.exclusiveMaximumLimit !== undefined || before.exclusiveMaximum,
      after.exclusiveMaximumLimit !== undefined || after.exclusiveMaximum,
      [
        'NUMBER_TYPE_IS_MAXIMUM_EXCLUSIVE_FALSE_TO_TRUE',
        'NUMBER_TYPE_IS_MAXIMUM_EXCLUSIVE_TRUE_TO_FALSE',
        'NUMBER_TYPE_IS_MAXIMUM_EXCLUSIVE_UNCHANGED',
      ],
    )
  }
  const sub = ctx.sub('multipleOf')
  if (
    addedRemoved(
      sub,
      before.multipleOf,
      after.multipleOf,
      'NUMBER_TYPE_MULTIPLE_OF_ADDED',
      'NUMBER_TYPE_MULTIPLE_OF_REMOVED',
    )
  ) {
    const divisible = isMultipleOf(before.multipleOf as string, after.multipleOf as string)
    sub.add(
      divisible
        ? 'NUMBER_TYPE_MULTIPLE_OF_UPDATED_IS_DIVISIBLE'
        : 'NUMBER_TYPE_MULTIPLE_OF_UPDATED_IS_NOT_DIVISIBLE',
      before.multipleOf,
      after.multipleOf,
    )
  }
}
