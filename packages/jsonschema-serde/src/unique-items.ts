import { createRequire } from 'node:module'
import { _, type CodeKeywordDefinition, type KeywordCxt, type Name, str } from 'ajv'
import { useFunc } from 'ajv/dist/compile/util.js'
import { checkDataTypes, DataType, getSchemaTypes } from 'ajv/dist/compile/validate/dataType.js'

/**
 * ajv's `uniqueItems`, with the same verdicts and errors, but linear in the array's length where ajv compares every
 * item with every other (for items of no declared scalar type: objects, arrays, mixed), which a few thousand items
 * of an `enum` (checked against the meta-schema) or of a message turn into seconds of a blocked event loop.
 */

/** ajv's deep equality (`fast-deep-equal`), which ajv's `uniqueItems` compares items with. */
const ajvEqual = (
  createRequire(import.meta.url)('ajv/dist/runtime/equal') as { default: (a: unknown, b: unknown) => boolean }
).default

/** Deeper than this, an item's key is not worked out: the array is compared as ajv compares it. */
const KEY_DEPTH = 256

/**
 * The key of a plain JSON-like value (a primitive, an array, an object whose prototype is `Object.prototype` and
 * that owns no `constructor`, `valueOf` or `toString`): two plain values have the same key exactly when ajv's deep
 * equality holds between them (`NaN` equals `NaN`, `0` equals `-0`, holes equal `undefined`). `undefined` for any
 * other value, or one nested deeper than {@link KEY_DEPTH}.
 */
function keyOf(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      return Number.isNaN(value) ? 'NaN' : String(value === 0 ? 0 : value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'undefined':
      return 'undefined'
    case 'bigint':
      return `${value}n`
    case 'object': {
      if (value === null) return 'null'
      if (depth === 0) return undefined
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return undefined
        let key = '['
        for (let index = 0; index < value.length; index++) {
          const item = keyOf(value[index], depth - 1)
          if (item === undefined) return undefined
          key += index === 0 ? item : `,${item}`
        }
        return `${key}]`
      }
      if (
        Object.getPrototypeOf(value) !== Object.prototype ||
        Object.hasOwn(value, 'constructor') ||
        Object.hasOwn(value, 'valueOf') ||
        Object.hasOwn(value, 'toString')
      )
        return undefined
      const names = Object.keys(value).sort()
      let key = '{'
      for (let index = 0; index < names.length; index++) {
        const item = keyOf((value as Record<string, unknown>)[names[index]!], depth - 1)
        if (item === undefined) return undefined
        key += `${index === 0 ? '' : ','}${JSON.stringify(names[index])}:${item}`
      }
      return `${key}}`
    }
    default:
      return undefined
  }
}

/**
 * The pair ajv's `uniqueItems` reports for `items` (no declared scalar item type): the last item `i` equal to an
 * earlier one, and the last such earlier item `j`; `undefined` when all differ. Plain items are told apart by their
 * keys in one pass; an array holding any other value is compared pair by pair, as ajv does.
 */
export function duplicateOf(items: readonly unknown[]): { i: number; j: number } | undefined {
  const keys: string[] = []
  for (let index = 0; index < items.length; index++) {
    const key = keyOf(items[index], KEY_DEPTH)
    if (key === undefined) return duplicateByPairs(items)
    keys.push(key)
  }
  const first = new Map<string, number>()
  for (let index = 0; index < keys.length; index++)
    if (!first.has(keys[index]!)) first.set(keys[index]!, index)
  for (let i = keys.length - 1; i > 0; i--) {
    if (first.get(keys[i]!)! < i) {
      for (let j = i - 1; j >= 0; j--) if (keys[j] === keys[i]) return { i, j }
    }
  }
  return undefined
}

/** ajv's own search: every item from the last, against every earlier one from the nearest. */
function duplicateByPairs(items: readonly unknown[]): { i: number; j: number } | undefined {
  for (let i = items.length - 1; i > 0; i--)
    for (let j = i - 1; j >= 0; j--) if (ajvEqual(items[i], items[j])) return { i, j }
  return undefined
}

/** How generated code (ajv's standalone modules) names {@link duplicateOf}: replaced by an import there. */
export const DUPLICATE_OF_CODE = 'require("@x/jsonschema-serde/unique-items").duplicateOf'
;(duplicateOf as unknown as { code: string }).code = DUPLICATE_OF_CODE

/**
 * ajv's `uniqueItems` keyword (its error, its `$data` support, its linear search for declared scalar item types),
 * with {@link duplicateOf} where ajv compares every pair. Added in place of ajv's own to every instance.
 */
export const UNIQUE_ITEMS: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  $data: true,
  error: {
    message: ({ params: { i, j } }) =>
      str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, $data, schema, parentSchema, schemaCode, it } = cxt
    if (!$data && !schema) return
    const valid = gen.let('valid')
    const itemTypes = parentSchema.items ? getSchemaTypes(parentSchema.items) : []
    cxt.block$data(valid, validateUniqueItems, _`${schemaCode} === false`)
    cxt.ok(valid)

    function validateUniqueItems(): void {
      const i = gen.let('i', _`${data}.length`)
      const j = gen.let('j')
      cxt.setParams({ i, j })
      gen.assign(valid, true)
      gen.if(_`${i} > 1`, () => (canOptimize() ? loopN(i, j) : search(i, j)))
    }

    function canOptimize(): boolean {
      return itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array')
    }

    // ajv's, as it is.
    function loopN(i: Name, j: Name): void {
      const item = gen.name('item')
      const wrongType = checkDataTypes(itemTypes, item, it.opts.strictNumbers, DataType.Wrong)
      const indices = gen.const('indices', _`{}`)
      gen.for(_`;${i}--;`, () => {
        gen.let(item, _`${data}[${i}]`)
        gen.if(wrongType, _`continue`)
        if (itemTypes.length > 1) gen.if(_`typeof ${item} == "string"`, _`${item} += "_"`)
        gen
          .if(_`typeof ${indices}[${item}] == "number"`, () => {
            gen.assign(j, _`${indices}[${item}]`)
            cxt.error()
            gen.assign(valid, false).break()
          })
          .code(_`${indices}[${item}] = ${i}`)
      })
    }

    function search(i: Name, j: Name): void {
      const find = useFunc(gen, duplicateOf as unknown as { code: string })
      const found = gen.const('duplicate', _`${find}(${data})`)
      gen.if(_`${found} !== undefined`, () => {
        gen.assign(i, _`${found}.i`)
        gen.assign(j, _`${found}.j`)
        cxt.error()
        gen.assign(valid, false)
      })
    }
  },
}
