import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { create, createFileRegistry, type DescMessage, type Message } from '@bufbuild/protobuf'
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
} from '@bufbuild/protobuf/wkt'
import { interopDir } from './paths.js'

/** interop/fixtures/ccompat/shop.proto, as text (what our serializer registers). */
export const shopProtoText: string = readFileSync(join(interopDir, 'fixtures/ccompat/shop.proto'), 'utf8')

const { OPTIONAL, REPEATED } = FieldDescriptorProto_Label
const {
  STRING: TYPE_STRING,
  INT64: TYPE_INT64,
  INT32: TYPE_INT32,
  UINT64: TYPE_UINT64,
  MESSAGE: TYPE_MESSAGE,
} = FieldDescriptorProto_Type

const field = (name: string, number: number, type: FieldDescriptorProto_Type, extra: object = {}) => ({
  name,
  number,
  label: OPTIONAL,
  type,
  jsonName: name,
  ...extra,
})

/**
 * The same file as a FileDescriptorProto, written out by hand: what protoc-gen-es would generate for
 * @confluentinc/schemaregistry, whose serdes take @bufbuild/protobuf messages.
 */
export const shopFile: FileDescriptorProto = create(FileDescriptorProtoSchema, {
  name: 'shop.proto',
  package: 'interop.cc',
  syntax: 'proto3',
  messageType: [
    { name: 'First', field: [field('a', 1, TYPE_STRING)] },
    {
      name: 'Order',
      field: [
        field('id', 1, TYPE_INT64),
        field('sku', 2, TYPE_STRING),
        field('lines', 3, TYPE_INT32, { label: REPEATED }),
        field('line', 4, TYPE_MESSAGE, { typeName: '.interop.cc.Order.Line' }),
      ],
      nestedType: [
        { name: 'Line', field: [field('name', 1, TYPE_STRING), field('qty', 2, TYPE_UINT64)] },
        {
          name: 'Inner',
          nestedType: [{ name: 'Deeper', field: [field('s', 1, TYPE_STRING), field('n', 2, TYPE_INT64)] }],
        },
      ],
    },
  ],
})

/** The descriptors Confluent's serializer needs, by full name. */
export const shopRegistry = createFileRegistry(shopFile, () => undefined)

export function shopMessage(typeName: string): DescMessage {
  const desc = shopRegistry.getMessage(typeName)
  if (desc === undefined) throw new TypeError(`no message ${typeName} in shop.proto`)
  return desc
}

/** The messages both sides write, as @bufbuild/protobuf messages (Confluent) and as our plain objects. */
export function shopCases(): {
  typeName: string
  indexes: string
  bufbuild: Message
  ours: Record<string, unknown>
}[] {
  return [
    {
      typeName: 'interop.cc.First',
      indexes: '00', // [0]: Confluent's single-zero shortcut
      bufbuild: create(shopMessage('interop.cc.First'), { a: 'first' }),
      ours: { a: 'first' },
    },
    {
      typeName: 'interop.cc.Order',
      indexes: '0202', // [1]
      bufbuild: create(shopMessage('interop.cc.Order'), {
        id: 9007199254740993n,
        sku: 'SKU-1',
        lines: [1, 2, 300],
        line: { name: 'n', qty: 18446744073709551615n },
      }),
      ours: {
        id: 9007199254740993n,
        sku: 'SKU-1',
        lines: [1, 2, 300],
        line: { name: 'n', qty: 18446744073709551615n },
      },
    },
    {
      typeName: 'interop.cc.Order.Inner.Deeper',
      indexes: '06020200', // [1, 1, 0]
      bufbuild: create(shopMessage('interop.cc.Order.Inner.Deeper'), { s: 'deep', n: -5n }),
      ours: { s: 'deep', n: -5 },
    },
  ]
}
