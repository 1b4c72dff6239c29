import { describe, expect, it } from 'vitest'
import {
  importsOfProto,
  loadProto,
  MissingImportError,
  type ProtoImportReader,
  ProtoSyntaxError,
} from './proto-loader.js'

const files: Record<string, string> = {
  'shop/order.proto':
    'syntax = "proto3";\npackage shop;\nimport "shop/money.proto";\nimport "google/protobuf/timestamp.proto";\n' +
    'message Order { Money total = 1; google.protobuf.Timestamp at = 2; }\n',
  'shop/money.proto':
    'syntax = "proto3";\npackage shop;\nimport "shop/unit.proto";\nmessage Money { Unit unit = 1; }\n',
  'shop/unit.proto': 'syntax = "proto3";\npackage shop;\nmessage Unit { int64 n = 1; }\n',
}

describe('loadProto', () => {
  it('loads every import recursively, each file once, asking with the name of the importing file', () => {
    const asked: [string, string][] = []
    const readImport: ProtoImportReader = (path, importer) => {
      asked.push([path, importer])
      return files[path]
    }
    const loaded = loadProto(
      `${files['shop/order.proto']!}message Other { Money m = 1; }\n`.replace(
        'import "shop/money.proto";',
        'import "shop/money.proto";\nimport "shop/unit.proto";',
      ),
      { name: 'shop/order.proto', readImport },
    )
    loaded.root.resolveAll()
    // unit.proto is asked for by both files that import it, and parsed once (twice would define Unit twice).
    expect(asked).toEqual([
      ['shop/money.proto', 'shop/order.proto'],
      ['shop/unit.proto', 'shop/money.proto'],
      ['shop/unit.proto', 'shop/order.proto'],
    ])
    expect(loaded.packageName).toBe('shop')
    expect(loaded.imports).toEqual(['shop/money.proto', 'shop/unit.proto', 'google/protobuf/timestamp.proto'])
    expect(loaded.root.lookupType('shop.Unit').fields.n!.type).toBe('int64')
    expect(loaded.root.lookupType('google.protobuf.Timestamp').name).toBe('Timestamp')
  })

  it('resolves a later import from the file the reader found: its name is what the reader returned', () => {
    const seen: string[] = []
    loadProto(files['shop/order.proto']!, {
      readImport: (path, importer) => {
        seen.push(importer)
        return { name: `/abs/${path}`, text: files[path]! }
      },
    })
    expect(seen).toEqual(['the schema', '/abs/shop/money.proto'])
  })

  it('throws a MissingImportError naming every import not found and the file importing it, never leaving a type out', () => {
    let error: unknown
    try {
      loadProto(files['shop/order.proto']!, {
        name: 'order.proto',
        readImport: (path) => (path === 'shop/money.proto' ? files[path] : undefined),
      })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(MissingImportError)
    expect(error).toMatchObject({
      imports: ['shop/unit.proto'],
      importers: ['shop/money.proto'],
      message: "it imports 'shop/unit.proto', which cannot be found",
    })
    expect(() => loadProto(files['shop/order.proto']!)).toThrow(MissingImportError)
  })

  it('names the file that does not parse', () => {
    expect(() =>
      loadProto('syntax = "proto3";\nimport "bad.proto";\nmessage A { int32 a = 1; }\n', {
        readImport: () => 'message {',
      }),
    ).toThrow(ProtoSyntaxError)
    expect(() => loadProto('message {', { readImport: () => 'message {' })).toThrow(/^the schema: /)
    expect(() =>
      loadProto('syntax = "proto3";\nimport "bad.proto";\n', { readImport: () => 'message {' }),
    ).toThrow(/^the imported file 'bad\.proto': /)
  })
})

describe('importsOfProto', () => {
  it('reads the imports the parser reads: after another statement on a line, weak ones, none in comments', () => {
    const text = [
      'syntax = "proto3"; import "x.proto"; import weak "w.proto"; import public "p.proto";',
      '/* import "commented.proto"; */',
      'message A { int32 n = 1; }',
    ].join('\n')
    expect(importsOfProto(text)).toEqual(['x.proto', 'p.proto', 'w.proto'])
  })

  it('throws a ProtoSyntaxError for a text that does not parse', () => {
    expect(() => importsOfProto('import "a.proto"\nmessage {')).toThrow(ProtoSyntaxError)
  })
})
