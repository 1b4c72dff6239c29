import { unwrapsUnion, type ValueKind } from '@x/avro-serde/union-rule'
import { docComment, identifierOf, propertyName } from './ts-names.js'

/** The options of the deserializer the types are for (`avro` option of `AvroDeserializer`). */
export interface AvroTypeOptions {
  /** @default 'auto' */
  longs?: 'auto' | 'number' | 'bigint'
  /** @default 'auto' */
  unions?: 'auto' | 'wrapped'
}

type Kind = ValueKind

/** A type as rendered: its TypeScript, what it takes on write, and its branch name in a wrapped union. */
export interface Rendered {
  ts: string
  /** What the type takes on write: decides whether an `auto` union is unwrapped (as `@x/avro-serde` does). */
  kinds: readonly Kind[]
  /** The branch name of a wrapped union (`com.example.Cat`, `string`, `long` for a timestamp). */
  branch: string
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'])

/**
 * TypeScript declarations for an Avro schema that match what `AvroDeserializer` returns under the given `avro`
 * options: records as interfaces, enums as string-literal unions, named types declared once, `long` as
 * `number | bigint` (`longs: 'auto'`), `timestamp-millis` and `date` as `Date`, micro/nano timestamps as `bigint`,
 * `decimal` as `string`, `bytes`/`fixed` as `Buffer`, unions unwrapped exactly when the deserializer unwraps them.
 * Ends with a typed constant of the schema (`<Name>Schema`), for `new AvroSerializer<Name>(…, { schema })`.
 */
export function avroToTypeScript(
  schema: unknown,
  options: AvroTypeOptions = {},
  source = 'an Avro schema',
): string {
  const longs = options.longs ?? 'auto'
  const unions = options.unions ?? 'auto'
  const named = new Map<string, { id: string; rendered: Rendered; declaration?: string }>()
  const taken = new Set<string>()
  const declarations: string[] = []

  const fullNameOf = (node: Record<string, unknown>, space: string | undefined): string => {
    const name = String(node.name)
    if (name.includes('.')) return name
    const namespace = typeof node.namespace === 'string' ? node.namespace : space
    return namespace ? `${namespace}.${name}` : name
  }

  const render = (node: unknown, space: string | undefined): Rendered => {
    if (typeof node === 'string') {
      if (PRIMITIVES.has(node)) return primitive(node, longs)
      const full = node.includes('.') || space === undefined ? node : `${space}.${node}`
      const found = named.get(full) ?? named.get(node)
      if (found === undefined)
        throw new TypeError(`${source}: the type ${node} is not defined before its use`)
      return found.rendered
    }
    if (Array.isArray(node))
      return union(
        node.map((branch) => render(branch, space)),
        unions,
      )
    if (typeof node !== 'object' || node === null)
      throw new TypeError(`${source}: not a schema: ${JSON.stringify(node)}`)
    const object = node as Record<string, unknown>
    const type = object.type
    const logical = typeof object.logicalType === 'string' ? logicalType(object, type) : undefined
    if (logical !== undefined) return logical
    if (typeof type === 'string' && PRIMITIVES.has(type)) return primitive(type, longs)
    if (type === 'array') {
      const items = render(object.items, space)
      return { ts: `Array<${items.ts}>`, kinds: ['array'], branch: 'array' }
    }
    if (type === 'map') {
      const values = render(object.values, space)
      return { ts: `Record<string, ${values.ts}>`, kinds: ['object'], branch: 'map' }
    }
    if (type === 'record' || type === 'error' || type === 'enum' || type === 'fixed') {
      const full = fullNameOf(object, space)
      const id = identifierOf(full, taken)
      taken.add(id)
      const rendered: Rendered = {
        ts: id,
        kinds: type === 'enum' ? ['string'] : type === 'fixed' ? ['bytes'] : ['object'],
        branch: full,
      }
      named.set(full, { id, rendered })
      const inner = full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : undefined
      if (type === 'enum') {
        const symbols = Array.isArray(object.symbols)
          ? object.symbols.map((s) => JSON.stringify(String(s)))
          : []
        declarations.push(
          `${docComment(object.doc, '')}export type ${id} = ${symbols.join(' | ') || 'never'}\n`,
        )
      } else if (type === 'fixed') {
        declarations.push(
          `${docComment(object.doc, '')}/** Avro fixed ${full}, ${String(object.size)} bytes. */\nexport type ${id} = Buffer\n`,
        )
      } else {
        const index = declarations.push('') - 1
        const fields = Array.isArray(object.fields) ? (object.fields as Record<string, unknown>[]) : []
        const members = fields.map((field) => {
          const fieldType = render(field.type, inner)
          return `${docComment(field.doc, '  ')}  ${propertyName(String(field.name))}: ${fieldType.ts}\n`
        })
        declarations[index] = `${docComment(object.doc, '')}export interface ${id} {\n${members.join('')}}\n`
      }
      return rendered
    }
    if (typeof type === 'string' || Array.isArray(type) || typeof type === 'object')
      return render(type, space)
    throw new TypeError(`${source}: no type in ${JSON.stringify(node).slice(0, 80)}`)
  }

  const root = render(schema, undefined)
  const rootName = typeof (schema as { name?: unknown })?.name === 'string' ? root.ts : 'Value'
  const lines = [
    `// Generated by x-serde codegen from ${source}. Do not edit.`,
    `// The types of what AvroDeserializer returns with avro: { longs: '${longs}', unions: '${unions}' }.`,
    '',
    ...declarations,
  ]
  if (rootName === 'Value') lines.push(`export type Value = ${root.ts}\n`)
  lines.push(
    `/** The schema, for \`new AvroSerializer<${rootName}>(client, artifactId, { autoRegister: true, schema })\`. */`,
  )
  lines.push(`export const ${rootName}Schema = ${JSON.stringify(schema, null, 2)} as const\n`)
  return lines.join('\n')
}

/** A primitive type rendered under the `longs` option (its kinds are those `@x/avro-serde` writes). */
export function primitive(type: string, longs: 'auto' | 'number' | 'bigint'): Rendered {
  switch (type) {
    case 'null':
      return { ts: 'null', kinds: ['null'], branch: 'null' }
    case 'boolean':
      return { ts: 'boolean', kinds: ['boolean'], branch: 'boolean' }
    case 'int':
    case 'float':
    case 'double':
      return { ts: 'number', kinds: ['number'], branch: type }
    case 'long':
      return {
        ts: longs === 'auto' ? 'number | bigint' : longs,
        kinds: ['number', 'bigint'],
        branch: 'long',
      }
    case 'bytes':
      return { ts: 'Buffer', kinds: ['bytes'], branch: 'bytes' }
    default:
      return { ts: 'string', kinds: ['string'], branch: 'string' }
  }
}

/** A built-in logical type the deserializer maps, when the annotation is valid (else the underlying type applies). */
export function logicalType(object: Record<string, unknown>, type: unknown): Rendered | undefined {
  const name = object.logicalType as string
  const on = (wanted: string) => type === wanted
  switch (name) {
    case 'timestamp-millis':
    case 'local-timestamp-millis':
      return on('long') ? { ts: 'Date', kinds: ['date', 'number'], branch: 'long' } : undefined
    case 'timestamp-micros':
    case 'local-timestamp-micros':
    case 'timestamp-nanos':
    case 'local-timestamp-nanos':
      return on('long') ? { ts: 'bigint', kinds: ['bigint', 'number', 'date'], branch: 'long' } : undefined
    case 'time-micros':
      return on('long') ? { ts: 'bigint', kinds: ['bigint', 'number'], branch: 'long' } : undefined
    case 'time-millis':
      return on('int') ? { ts: 'number', kinds: ['number'], branch: 'int' } : undefined
    case 'date':
      return on('int') ? { ts: 'Date', kinds: ['date', 'number'], branch: 'int' } : undefined
    case 'uuid':
      return on('string') || (type === 'fixed' && object.size === 16)
        ? { ts: 'string', kinds: ['string'], branch: on('string') ? 'string' : String(object.name) }
        : undefined
    case 'decimal': {
      const precision = object.precision
      const scale = object.scale ?? 0
      const valid =
        Number.isInteger(precision) &&
        (precision as number) > 0 &&
        Number.isInteger(scale) &&
        (scale as number) >= 0 &&
        (scale as number) <= (precision as number) &&
        (on('bytes') ||
          (type === 'fixed' &&
            Number.isInteger(object.size) &&
            (precision as number) <= Math.floor(Math.log10(2 ** (8 * (object.size as number) - 1) - 1))))
      return valid
        ? {
            ts: 'string',
            kinds: ['string', 'number', 'bigint'],
            branch: on('bytes') ? 'bytes' : String(object.name),
          }
        : undefined
    }
    default:
      return undefined
  }
}

/** A union as the deserializer returns it: bare values when `@x/avro-serde`'s rule unwraps it, else wrapped. */
function union(branches: readonly Rendered[], mode: 'auto' | 'wrapped'): Rendered {
  const unwrapped = mode === 'auto' && unwrapsUnion(branches.map((branch) => branch.kinds))
  const seen = new Set(branches.flatMap((branch) => branch.kinds))
  const ts = branches
    .map((branch) =>
      unwrapped || branch.branch === 'null'
        ? branch.ts
        : `{ ${JSON.stringify(branch.branch)}: ${branch.ts} }`,
    )
    .join(' | ')
  return { ts: branches.length === 0 ? 'never' : ts, kinds: [...seen], branch: 'union' }
}
