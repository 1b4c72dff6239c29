import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import avro from 'avsc'
import { afterEach, describe, expect, it } from 'vitest'
import { builtins, inherit } from './avsc-internals.js'
import {
  AVSC_INTERNALS,
  AVSC_VERSION,
  checkAvscVersion,
  findAvscProblems,
  OWN_FIELDS,
  TYPE_NAMES,
} from './avsc-surface.js'

const here = dirname(fileURLToPath(import.meta.url))

/** Undo list of the patches a test made to avsc's (shared) classes. */
const restores: (() => void)[] = []
afterEach(() => {
  while (restores.length > 0) restores.pop()!()
})

/** Replaces (or with `undefined`, deletes) `target[key]` until the test ends. */
function patch(target: object, key: string, value: unknown): void {
  const had = Object.hasOwn(target, key)
  const saved = (target as Record<string, unknown>)[key]
  if (value === undefined) delete (target as Record<string, unknown>)[key]
  else (target as Record<string, unknown>)[key] = value
  restores.push(() => {
    if (had) (target as Record<string, unknown>)[key] = saved
    else delete (target as Record<string, unknown>)[key]
  })
}

function tapPrototype(): Record<string, unknown> {
  let tap: object | undefined
  avro.Type.prototype.decode.call(
    {
      _read: (t: object) => {
        tap = t
      },
    } as never,
    Buffer.alloc(1),
    0,
  )
  return Object.getPrototypeOf(tap) as Record<string, unknown>
}

describe('the list of avsc internals', () => {
  it('holds for the avsc installed: every internal has the shape the layer was written for', () => {
    expect(findAvscProblems()).toEqual([])
  })

  it('names an underscore method avsc no longer has', () => {
    patch(builtins.RecordType.prototype, '_createWriter', undefined)
    const problems = findAvscProblems()
    expect(problems).toContainEqual(
      expect.stringMatching(/^RecordType#_createWriter: .*is undefined, not a function/),
    )
    // And the check that avsc calls it while building a record.
    expect(problems.some((p) => p.startsWith('RecordType(schema, opts) builds its constructor'))).toBe(true)
  })

  it('names a Tap method whose arity changed', () => {
    const proto = tapPrototype()
    patch(proto, 'writeLong', (_n: number, _extra: unknown) => undefined)
    expect(findAvscProblems()).toContainEqual(
      expect.stringMatching(/^Tap#writeLong: Tap.prototype.writeLong takes 2 parameters, not 1/),
    )
  })

  it('names AbstractLongType when the prototype path from LongType.__with no longer leads to it', () => {
    patch(builtins.LongType, '__with', (_methods: object, _noUnpack: boolean) => Object.freeze({}))
    expect(findAvscProblems()).toContainEqual(
      expect.stringMatching(/^AbstractLongType: avsc has no AbstractLongType/),
    )
  })

  it('names a hook avsc stopped calling', () => {
    const LogicalProto = builtins.LogicalType.prototype as Record<string, unknown>
    patch(
      LogicalProto,
      '_write',
      function (
        this: { underlyingType: { _write(t: unknown, v: unknown): void } },
        tap: unknown,
        value: unknown,
      ) {
        this.underlyingType._write(tap, value)
      },
    )
    expect(findAvscProblems()).toContainEqual(
      expect.stringMatching(/^LogicalType#_write writes _toValue\(value\).*not go through `_toValue`/),
    )
  })

  it('names each entry once, with what the layer uses it for', () => {
    const names = AVSC_INTERNALS.map((internal) => internal.name)
    expect(new Set(names).size).toBe(names.length)
    for (const internal of AVSC_INTERNALS) expect(internal.use.length).toBeGreaterThan(0)
  })

  it('refuses, at load time, a subclass overriding an underscore member it does not list', () => {
    expect(() => inherit(function Sub() {}, builtins.IntType, { _match: () => 0 })).toThrow(
      'IntType#_match is overridden but not listed in avsc-surface.ts',
    )
    expect(() => inherit(function Sub() {}, builtins.IntType, { _write: () => undefined })).not.toThrow()
  })

  it('lists every underscore member and Tap method the sources of the layer use', () => {
    // `Class#member` or `Class.member` at the start of an entry's name.
    const listed = new Set(AVSC_INTERNALS.map((internal) => /^\w+[#.](\w+)/.exec(internal.name)?.[1]))
    const own = new Set(Object.keys(OWN_FIELDS))
    const unlisted = new Set<string>()
    const sources = readdirSync(here).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    expect(sources.length).toBeGreaterThan(10)
    for (const file of sources) {
      if (file === 'avsc-surface.ts') continue
      const text = readFileSync(join(here, file), 'utf8')
      // Uses (`x._read(`), definitions (`_write(tap` in an object or class, `_isValid: fn`) and Tap calls.
      const found = [
        ...text.matchAll(/\.(_[A-Za-z]\w*)/g),
        ...text.matchAll(/^\s*(?:override\s+)?(_[A-Za-z]\w*)\s*[(:]/gm),
        ...text.matchAll(/\btap\.([A-Za-z]\w*)\s*\(/g),
      ].map((match) => match[1]!)
      for (const name of found) if (!listed.has(name) && !own.has(name)) unlisted.add(`${file}: ${name}`)
    }
    expect([...unlisted]).toEqual([])
  })
})

describe('the typeName strings', () => {
  it('lists every typeName the sources of the layer switch on or compare with', () => {
    const listed = new Set<string>([
      ...TYPE_NAMES.primitives,
      ...Object.values(TYPE_NAMES.named),
      ...Object.values(TYPE_NAMES.collections),
      ...Object.values(TYPE_NAMES.unions),
      TYPE_NAMES.abstractLong,
    ])
    const unlisted: string[] = []
    let seen = 0
    for (const file of readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      if (file === 'avsc-surface.ts') continue
      const lines = readFileSync(join(here, file), 'utf8').split('\n')
      const names: string[] = []
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/typeName\s*[!=]==\s*'([^']+)'/g)) names.push(m[1]!)
        for (const m of line.matchAll(/typeName\.startsWith\('([^']+)'\)/g)) {
          if (m[1] !== TYPE_NAMES.logicalPrefix) unlisted.push(`${file}: a typeName starting with '${m[1]}'`)
          seen++
        }
        // The case labels of a `switch (….typeName)`, up to its closing brace at the same indentation.
        const open = /^(\s*)switch \([\w.]*typeName\) \{/.exec(line)
        if (open === null) return
        for (let j = i + 1; j < lines.length && !lines[j]!.startsWith(`${open[1]}}`); j++) {
          for (const m of lines[j]!.matchAll(/^\s*case '([^']+)':/g)) names.push(m[1]!)
        }
      })
      seen += names.length
      for (const name of names) if (!listed.has(name)) unlisted.push(`${file}: '${name}'`)
    }
    expect(seen).toBeGreaterThan(30)
    expect(unlisted).toEqual([])
  })
})

describe('the avsc version check', () => {
  it('passes the avsc this layer was written for', () => {
    expect(() => checkAvscVersion({ version: AVSC_VERSION, where: undefined })).not.toThrow()
  })

  it('refuses another avsc with an Error naming the version expected, the version found and where', () => {
    const where = '/app/node_modules/avsc/package.json'
    let error: unknown
    try {
      checkAvscVersion({ version: '5.8.0', where })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(
      /^@x\/avro-serde needs avsc 5\.7\.9 but found avsc 5\.8\.0 \(\/app\/node_modules\/avsc\/package\.json\)/,
    )
  })

  it('checks the list instead when the version cannot be read, and refuses an avsc that differs', () => {
    expect(() => checkAvscVersion({ version: undefined, where: undefined })).not.toThrow()
    patch(builtins.MapType.prototype, '_skip', undefined)
    expect(() => checkAvscVersion({ version: undefined, where: undefined })).toThrow(
      /needs avsc 5\.7\.9; the avsc found has no readable version and differs from it: MapType#_skip/,
    )
  })
})
