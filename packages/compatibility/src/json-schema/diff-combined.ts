import type { DiffContext } from './diff-context.js'
import { diffSchema } from './diff-schema.js'
import type { DiffType } from './diff-types.js'
import { addedRemoved, compareBoth, integerChanged } from './diff-util.js'
import {
  type CombinedNode,
  type ConditionalNode,
  keyOf,
  type LoadedSchema,
  type NotNode,
} from './schema-model.js'

const SIZE_TYPES: Readonly<Record<CombinedNode['criterion'], readonly [DiffType, DiffType]>> = {
  oneOf: ['COMBINED_TYPE_ONE_OF_SIZE_INCREASED', 'COMBINED_TYPE_ONE_OF_SIZE_DECREASED'],
  anyOf: ['COMBINED_TYPE_ANY_OF_SIZE_INCREASED', 'COMBINED_TYPE_ANY_OF_SIZE_DECREASED'],
  allOf: ['COMBINED_TYPE_ALL_OF_SIZE_INCREASED', 'COMBINED_TYPE_ALL_OF_SIZE_DECREASED'],
}

/**
 * The differences between two `allOf` / `anyOf` / `oneOf` schemas: a changed criterion (widening to `anyOf` is
 * compatible) ends the comparison; else the sizes are compared and, when the new one has no fewer subschemas, each
 * old subschema must be matched by a new one that reads its data, as Apicurio's greedy matching pairs them.
 */
export function diffCombined(ctx: DiffContext, before: CombinedNode, after: CombinedNode): void {
  if (before.criterion !== after.criterion) {
    const sub = ctx.sub('[criterion]')
    if (after.criterion === 'anyOf') sub.add('COMBINED_TYPE_CRITERION_EXTENDED')
    else if (before.criterion === 'anyOf') sub.add('COMBINED_TYPE_CRITERION_NARROWED')
    else sub.add('COMBINED_TYPE_CRITERION_CHANGED')
    return
  }
  const [increased, decreased] = SIZE_TYPES[after.criterion]
  integerChanged(ctx.sub('[size]'), before.subschemas.length, after.subschemas.length, [
    'UNDEFINED_UNUSED',
    'UNDEFINED_UNUSED',
    increased,
    decreased,
  ])
  if (before.subschemas.length > after.subschemas.length) return
  const readers = new Map<string, { schema: LoadedSchema; matches: Map<string, LoadedSchema> }>()
  for (const old of before.subschemas) {
    const entry = readers.get(keyOf(old)) ?? { schema: old, matches: new Map<string, LoadedSchema>() }
    readers.set(keyOf(old), entry)
    for (const candidate of after.subschemas) {
      const root = ctx.rootLike()
      diffSchema(root, old, candidate)
      if (root.allCompatible()) entry.matches.set(keyOf(candidate), candidate)
    }
  }
  for (let next = fewest(readers); next !== undefined; next = fewest(readers)) {
    const [key, entry] = next
    const taken = entry.matches.keys().next()
    if (taken.done === true) {
      ctx.add('COMBINED_TYPE_SUBSCHEMA_NOT_COMPATIBLE')
    } else {
      for (const other of readers.values()) other.matches.delete(taken.value)
    }
    if (entry.matches.size === 0) readers.delete(key)
  }
}

function fewest<T extends { matches: Map<string, unknown> }>(
  readers: Map<string, T>,
): [string, T] | undefined {
  let best: [string, T] | undefined
  for (const entry of readers)
    if (best === undefined || entry[1].matches.size < best[1].matches.size) best = entry
  return best
}

const CONDITIONAL_TYPES = {
  ifSchema: [
    'CONDITIONAL_TYPE_IF_SCHEMA_ADDED',
    'CONDITIONAL_TYPE_IF_SCHEMA_REMOVED',
    'CONDITIONAL_TYPE_IF_SCHEMA_COMPATIBLE_BOTH',
    'CONDITIONAL_TYPE_IF_SCHEMA_COMPATIBLE_BACKWARD_NOT_FORWARD',
    'CONDITIONAL_TYPE_IF_SCHEMA_COMPATIBLE_FORWARD_NOT_BACKWARD',
    'CONDITIONAL_TYPE_IF_SCHEMA_COMPATIBLE_NONE',
  ],
  thenSchema: [
    'CONDITIONAL_TYPE_THEN_SCHEMA_ADDED',
    'CONDITIONAL_TYPE_THEN_SCHEMA_REMOVED',
    'CONDITIONAL_TYPE_THEN_SCHEMA_COMPATIBLE_BOTH',
    'CONDITIONAL_TYPE_THEN_SCHEMA_COMPATIBLE_BACKWARD_NOT_FORWARD',
    'CONDITIONAL_TYPE_THEN_SCHEMA_COMPATIBLE_FORWARD_NOT_BACKWARD',
    'CONDITIONAL_TYPE_THEN_SCHEMA_COMPATIBLE_NONE',
  ],
  elseSchema: [
    'CONDITIONAL_TYPE_ELSE_SCHEMA_ADDED',
    'CONDITIONAL_TYPE_ELSE_SCHEMA_REMOVED',
    'CONDITIONAL_TYPE_ELSE_SCHEMA_COMPATIBLE_BOTH',
    'CONDITIONAL_TYPE_ELSE_SCHEMA_COMPATIBLE_BACKWARD_NOT_FORWARD',
    'CONDITIONAL_TYPE_ELSE_SCHEMA_COMPATIBLE_FORWARD_NOT_BACKWARD',
    'CONDITIONAL_TYPE_ELSE_SCHEMA_COMPATIBLE_NONE',
  ],
} as const satisfies Record<string, readonly DiffType[]>

/** The differences between two `if` / `then` / `else` schemas, for each part the new schema has. */
export function diffConditional(ctx: DiffContext, before: ConditionalNode, after: ConditionalNode): void {
  for (const part of ['ifSchema', 'thenSchema', 'elseSchema'] as const) {
    const current = after[part]
    if (current === undefined) continue
    const [added, removed, both, backward, forward, none] = CONDITIONAL_TYPES[part]
    const sub = ctx.sub(part.replace('Schema', ''))
    if (addedRemoved(sub, before[part], current, added, removed)) {
      compareBoth(sub, before[part] as LoadedSchema, current, [both, backward, forward, none])
    }
  }
}

/** The difference between two `not` schemas: which of the two excluded schemas reads the other's data. */
export function diffNot(ctx: DiffContext, before: NotNode, after: NotNode): void {
  compareBoth(ctx.sub('not'), before.mustNotMatch, after.mustNotMatch, [
    'NOT_TYPE_SCHEMA_COMPATIBLE_BOTH',
    'NOT_TYPE_SCHEMA_COMPATIBLE_BACKWARD_NOT_FORWARD',
    'NOT_TYPE_SCHEMA_COMPATIBLE_FORWARD_NOT_BACKWARD',
    'NOT_TYPE_SCHEMA_COMPATIBLE_NONE',
  ])
}
