import { compareDecimal } from './decimal.js'
import type { DiffContext } from './diff-context.js'
import { diffSchema } from './diff-schema.js'
import type { DiffType } from './diff-types.js'
import type { LoadedSchema } from './schema-model.js'

/** Records an addition or a removal; `true` when both sides have a value to compare further. */
export function addedRemoved(
  ctx: DiffContext,
  before: unknown,
  after: unknown,
  added: DiffType,
  removed: DiffType,
): boolean {
  if (before === undefined && after !== undefined) ctx.add(added, before, after)
  else if (before !== undefined && after === undefined) ctx.add(removed, before, after)
  else return before !== undefined
  return false
}

/** Records the members added to and removed from a set (and that it changed). */
export function setChanged<T>(
  ctx: DiffContext,
  before: ReadonlySet<T>,
  after: ReadonlySet<T>,
  changed: DiffType,
  memberAdded: DiffType,
  memberRemoved: DiffType,
): void {
  let differs = false
  for (const member of before) {
    if (!after.has(member)) {
      ctx.add(memberRemoved, member)
      differs = true
    }
  }
  for (const member of after) {
    if (!before.has(member)) {
      ctx.add(memberAdded, undefined, member)
      differs = true
    }
  }
  if (differs) ctx.add(changed)
}

/** Records an integer limit added, removed, raised or lowered. */
export function integerChanged(
  ctx: DiffContext,
  before: number | undefined,
  after: number | undefined,
  types: readonly [added: DiffType, removed: DiffType, increased: DiffType, decreased: DiffType],
): boolean {
  return numberChanged(
    ctx,
    before === undefined ? undefined : String(before),
    after === undefined ? undefined : String(after),
    types,
  )
}

/** Records a decimal limit added, removed, raised or lowered; `true` when both have the same value. */
export function numberChanged(
  ctx: DiffContext,
  before: string | undefined,
  after: string | undefined,
  [added, removed, increased, decreased]: readonly [DiffType, DiffType, DiffType, DiffType],
): boolean {
  if (!addedRemoved(ctx, before, after, added, removed)) return false
  const order = compareDecimal(before as string, after as string)
  if (order < 0) ctx.add(increased, before, after)
  else if (order > 0) ctx.add(decreased, before, after)
  else return true
  return false
}

/** Records a boolean flag turned on, off, or kept; `true` when kept. */
export function booleanTransition(
  ctx: DiffContext,
  before: boolean,
  after: boolean,
  [falseToTrue, trueToFalse, unchanged]: readonly [DiffType, DiffType, DiffType],
): boolean {
  if (before && !after) ctx.add(trueToFalse, before, after)
  else if (!before && after) ctx.add(falseToTrue, before, after)
  else {
    ctx.add(unchanged, before, after)
    return true
  }
  return false
}

/** Records a value added, removed or changed. */
export function objectChanged(
  ctx: DiffContext,
  before: string | undefined,
  after: string | undefined,
  [added, removed, changed]: readonly [DiffType, DiffType, DiffType],
): void {
  if (addedRemoved(ctx, before, after, added, removed) && before !== after) ctx.add(changed, before, after)
}

/**
 * Whether data valid against `before` stays valid against `after` (`backward`), or the other way round, as a
 * comparison of its own that shares the references already followed.
 */
export function isCompatible(
  ctx: DiffContext,
  before: LoadedSchema,
  after: LoadedSchema,
  backward: boolean,
): boolean {
  const root = ctx.rootLike()
  if (backward) diffSchema(root, before, after)
  else diffSchema(root, after, before)
  return root.allCompatible()
}

/** Records a schema that may be absent (everything allowed) on either side: kept, widened, narrowed or changed. */
export function schemaOrTrue(
  ctx: DiffContext,
  before: LoadedSchema | undefined,
  after: LoadedSchema | undefined,
  types: readonly [both: DiffType, extended: DiffType, narrowed: DiffType, none: DiffType],
): void {
  if (before !== undefined && after === undefined) ctx.add(types[1])
  else if (before === undefined && after !== undefined) ctx.add(types[2])
  else if (before !== undefined && after !== undefined) compareBoth(ctx, before, after, types)
}

/** Records how two schemas relate: each reads the other's data, only one does, or neither. */
export function compareBoth(
  ctx: DiffContext,
  before: LoadedSchema,
  after: LoadedSchema,
  [both, backwardOnly, forwardOnly, none]: readonly [DiffType, DiffType, DiffType, DiffType],
): void {
  const backward = isCompatible(ctx, before, after, true)
  const forward = isCompatible(ctx, before, after, false)
  if (backward && forward) ctx.add(both)
  if (backward && !forward) ctx.add(backwardOnly)
  if (!backward && forward) ctx.add(forwardOnly)
  if (!backward && !forward) ctx.add(none)
}

/** Records subschemas the new schema adds (properties, tuple items), judged against what the old one let through. */
export function subschemasAdded(
  ctx: DiffContext,
  added: readonly LoadedSchema[],
  beforePermits: boolean,
  beforeSchemaOfAdditional: LoadedSchema | undefined,
  afterPermits: boolean,
  [extended, narrowed, changed]: readonly [DiffType, DiffType, DiffType],
): void {
  if (!beforePermits) ctx.add(extended)
  else if (beforeSchemaOfAdditional === undefined) ctx.add(narrowed)
  else if (
    !afterPermits &&
    added.every((schema) => isCompatible(ctx, schema, beforeSchemaOfAdditional, false))
  )
    ctx.add(narrowed)
  else if (afterPermits && added.every((schema) => isCompatible(ctx, schema, beforeSchemaOfAdditional, true)))
    ctx.add(extended)
  else ctx.add(changed)
}

/** Records subschemas the new schema removes, judged against what it lets through instead. */
export function subschemasRemoved(
  ctx: DiffContext,
  removed: readonly LoadedSchema[],
  afterPermits: boolean,
  afterSchemaOfAdditional: LoadedSchema | undefined,
  [narrowed, narrowedCompatible, extended, changed]: readonly [DiffType, DiffType, DiffType, DiffType],
): void {
  if (!afterPermits) ctx.add(narrowed)
  else if (afterSchemaOfAdditional === undefined) ctx.add(extended)
  else if (removed.every((schema) => isCompatible(ctx, schema, afterSchemaOfAdditional, true)))
    ctx.add(narrowedCompatible)
  else ctx.add(changed)
}
