import type { ValueKind } from './logical-base.js'

/**
 * The rule of `unions: 'auto'`, in one place for the codec and for code generation (`@x/cli`'s TypeScript types must
 * unwrap exactly the unions the deserializer unwraps): a union is unwrapped when every JavaScript value is taken by
 * at most one branch, judged by the kinds of value each branch takes on write. No avsc here: it is loaded by tools
 * that only read schemas.
 */

const ALL_KINDS: readonly ValueKind[] = [
  'boolean',
  'number',
  'bigint',
  'string',
  'bytes',
  'array',
  'object',
  'date',
]

/**
 * Branch index by value kind, from the kinds each branch takes (`undefined`: unknown, a custom logical type or hook
 * type that may take anything); undefined when two branches could take the same value (the union is wrapped).
 */
export function kindTable(
  kindsPerBranch: readonly (readonly ValueKind[] | undefined)[],
): Partial<Record<ValueKind, number>> | undefined {
  const table: Partial<Record<ValueKind, number>> = Object.create(null)
  let unknown: number | undefined
  for (let i = 0; i < kindsPerBranch.length; i++) {
    const kinds = kindsPerBranch[i]
    if (kinds === undefined) {
      if (unknown !== undefined) return undefined
      unknown = i
      continue
    }
    for (const kind of kinds) {
      if (table[kind] !== undefined) return undefined
      table[kind] = i
    }
  }
  if (unknown !== undefined) {
    // A branch of unknown kinds may take anything: only `null` can be told apart from it.
    if (Object.keys(table).some((kind) => kind !== 'null')) return undefined
    for (const kind of ALL_KINDS) table[kind] = unknown
  }
  return table
}

/**
 * Whether `unions: 'auto'` unwraps a union whose branches take these kinds of value on write (`undefined` for a
 * branch that may take anything): `['null']`, `['string']` is unwrapped; `['number']`, `['number', 'bigint']` (an
 * `int` and a `long`) is wrapped.
 */
export function unwrapsUnion(kindsPerBranch: readonly (readonly ValueKind[] | undefined)[]): boolean {
  return kindTable(kindsPerBranch) !== undefined
}
