import { diffArray } from './diff-array.js'
import { diffCombined, diffConditional, diffNot } from './diff-combined.js'
import type { DiffContext } from './diff-context.js'
import { diffObject } from './diff-object.js'
import { diffNumber, diffString } from './diff-scalar.js'
import { addedRemoved, setChanged } from './diff-util.js'
import { type ConstNode, type EnumNode, keyOf, type LoadedSchema } from './schema-model.js'

/**
 * The differences from `before` to `after`, found as Apicurio's JSON Schema diff finds them: by the kind of the new
 * schema, each compared with an old one of the same kind (else the type changed). A reference in the old schema is
 * followed once; one in the new schema is followed unless already followed on the way here.
 */
export function diffSchema(ctx: DiffContext, original: LoadedSchema, updated: LoadedSchema): void {
  const before = original.kind === 'ref' ? original.target() : original
  switch (updated.kind) {
    case 'string':
    case 'number':
    case 'boolean': {
      const match = sameKindInAllOf(before, updated)
      if (match.kind === 'false') return
      if (match.kind !== updated.kind) {
        ctx.add('SUBSCHEMA_TYPE_CHANGED')
        return
      }
      if (updated.kind === 'string' && match.kind === 'string') diffString(ctx, match, updated)
      if (updated.kind === 'number' && match.kind === 'number') diffNumber(ctx, match, updated)
      return
    }
    case 'empty':
    case 'true':
      if (!isPlainEmpty(before)) ctx.add('SUBSCHEMA_TYPE_CHANGED_TO_EMPTY_OR_TRUE')
      return
    case 'false':
      if (before.kind !== 'false') ctx.add('SUBSCHEMA_TYPE_CHANGED')
      return
    case 'const':
      diffConst(ctx, before, updated)
      return
    case 'enum':
      diffEnum(ctx, before, updated)
      return
    case 'ref':
      diffReference(ctx, before, updated)
      return
    default:
      break
  }
  if (before.kind === 'false') return
  if (before.kind !== updated.kind) {
    ctx.add('SUBSCHEMA_TYPE_CHANGED')
    return
  }
  switch (updated.kind) {
    case 'object':
      diffObject(ctx, before as typeof updated, updated)
      return
    case 'array':
      diffArray(ctx, before as typeof updated, updated)
      return
    case 'combined':
      diffCombined(ctx, before as typeof updated, updated)
      return
    case 'conditional':
      diffConditional(ctx, before as typeof updated, updated)
      return
    case 'not':
      diffNot(ctx, before as typeof updated, updated)
      return
    default:
      return
  }
}

/** An enum written with `type` loads as `allOf` of both: its one subschema of the new kind is compared instead. */
function sameKindInAllOf(before: LoadedSchema, updated: LoadedSchema): LoadedSchema {
  if (before.kind !== 'combined' || before.criterion !== 'allOf') return before
  const sameKind = new Map<string, LoadedSchema>()
  for (const sub of before.subschemas) if (sub.kind === updated.kind) sameKind.set(keyOf(sub), sub)
  return sameKind.size === 1 ? ([...sameKind.values()][0] as LoadedSchema) : before
}

/** `{}` itself: an empty schema with a title, a description or unknown keywords is not equal to it. */
function isPlainEmpty(schema: LoadedSchema): boolean {
  return (
    schema.kind === 'empty' &&
    typeof schema.raw === 'object' &&
    schema.raw !== null &&
    Object.keys(schema.raw).length === 0
  )
}

function diffConst(ctx: DiffContext, before: LoadedSchema, updated: ConstNode): void {
  if (before.kind === 'false') return
  let value: string | undefined
  if (before.kind === 'const') value = before.value
  else if (before.kind === 'enum' && before.values.size === 1) value = [...before.values][0]
  if (value === undefined) {
    ctx.add('SUBSCHEMA_TYPE_CHANGED')
    return
  }
  const sub = ctx.sub('const')
  if (
    addedRemoved(sub, value, updated.value, 'UNDEFINED_UNUSED', 'UNDEFINED_UNUSED') &&
    value !== updated.value
  ) {
    sub.add('CONST_TYPE_VALUE_CHANGED', value, updated.value)
  }
}

function diffEnum(ctx: DiffContext, before: LoadedSchema, updated: EnumNode): void {
  if (before.kind === 'false') return
  let values: ReadonlySet<string> | undefined
  if (before.kind === 'enum') values = before.values
  else if (before.kind === 'const') values = new Set([before.value])
  if (values === undefined) {
    ctx.add('SUBSCHEMA_TYPE_CHANGED')
    return
  }
  setChanged(
    ctx.sub('enum'),
    values,
    updated.values,
    'ENUM_TYPE_VALUES_CHANGED',
    'ENUM_TYPE_VALUES_MEMBER_ADDED',
    'ENUM_TYPE_VALUES_MEMBER_REMOVED',
  )
}

function diffReference(
  ctx: DiffContext,
  before: LoadedSchema,
  updated: LoadedSchema & { kind: 'ref' },
): void {
  if (before.kind === 'false') return
  const referred = before.kind === 'ref' ? before.target() : before
  if (ctx.visited.has(updated.location)) return
  diffSchema(ctx.following(updated.location, `[ref ${updated.location}]`), referred, updated.target())
}
