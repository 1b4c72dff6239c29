// Golden bytes and texts from Apicurio's Java Protobuf serde 3.1.7 (the authority on the wire format), made once by a
// Java program over the protoc 4.33.4 classes of interop/fixtures/proto (the interop suite's Java program builds the
// same classes; its ProtoMain.order(i) made these messages):
//   Ref.newBuilder().setName(name).build().writeDelimitedTo(out)      → REF
//   MessageIndexesUtil.writeTo(indexes, out)                          → JAVA_INDEXES
//   ProtoMain.order(i).toByteArray()                                  → ORDER_BYTES
//   ProtobufSchemaParser.toProtoFileElement(file).toSchema()          → the Wire-reformatted texts Java registers
// Kept as data, so that the unit tests check the engine against Java's bytes without running Java.

/** interop/fixtures/proto/order.proto as written by hand. */
export const ORDER_PROTO =
  'syntax = "proto3";\n\npackage interop.shop;\n\nimport "common/address.proto";\nimport "google/protobuf/timestamp.proto";\n\noption java_package = "x.serde.interop.proto.shop";\noption java_multiple_files = true;\n\n// The interop message: a long beyond 2^53, packed repeated ints, a map, a oneof, an enum, a nested message, bytes,\n// a message from another file (an artifact reference) and a well-known type.\nmessage Order {\n  int64 id = 1;\n  string sku = 2;\n  repeated int32 lines = 3;\n  map<string, int64> counts = 4;\n  interop.common.Address ship = 5;\n  google.protobuf.Timestamp at = 6;\n  Status status = 7;\n  oneof payment {\n    string card = 8;\n    string iban = 9;\n  }\n  Customer customer = 10;\n  bytes blob = 11;\n\n  enum Status {\n    NEW = 0;\n    PAID = 1;\n    SHIPPED = 2;\n  }\n\n  message Customer {\n    string name = 1;\n    uint64 points = 2;\n  }\n}\n\nmessage Refund {\n  int64 order_id = 1;\n}\n'

/** interop/fixtures/proto/common/address.proto. */
export const ADDRESS_PROTO =
  'syntax = "proto3";\n\npackage interop.common;\n\noption java_package = "x.serde.interop.proto.common";\noption java_multiple_files = true;\n\nmessage Address {\n  string city = 1;\n  int64 zip = 2;\n}\n'

/** order.proto as Apicurio's Java serde registers it (Wire-reformatted: full names, maps as map_entry messages). */
export const JAVA_ORDER_PROTO =
  '// Proto schema formatted by Wire, do not edit.\n// Source: \n\nsyntax = "proto3";\n\npackage interop.shop;\n\nimport "common/address.proto";\nimport "google/protobuf/timestamp.proto";\n\noption java_package = "x.serde.interop.proto.shop";\noption java_multiple_files = true;\n\nmessage Order {\n  int64 id = 1;\n\n  string sku = 2;\n\n  repeated int32 lines = 3;\n\n  repeated .interop.shop.Order.CountsEntry counts = 4;\n\n  .interop.common.Address ship = 5;\n\n  .google.protobuf.Timestamp at = 6;\n\n  .interop.shop.Order.Status status = 7;\n\n  .interop.shop.Order.Customer customer = 10;\n\n  bytes blob = 11;\n\n  oneof payment {\n    string card = 8;\n    string iban = 9;\n  }\n\n  message CountsEntry {\n    option map_entry = true;\n  \n    string key = 1;\n  \n    int64 value = 2;\n  }\n\n  message Customer {\n    string name = 1;\n  \n    uint64 points = 2;\n  }\n\n  enum Status {\n    NEW = 0;\n    PAID = 1;\n    SHIPPED = 2;\n  }\n}\n\nmessage Refund {\n  int64 order_id = 1;\n}\n'

/** address.proto as Apicurio's Java serde registers it. */
export const JAVA_ADDRESS_PROTO =
  '// Proto schema formatted by Wire, do not edit.\n// Source: \n\nsyntax = "proto3";\n\npackage interop.common;\n\noption java_package = "x.serde.interop.proto.common";\noption java_multiple_files = true;\n\nmessage Address {\n  string city = 1;\n\n  int64 zip = 2;\n}\n'

/** Apicurio's `Ref` (length-delimited) for each message name. */
export const REF: Readonly<Record<string, string>> = {
  Order: '070a054f72646572',
  Customer: '0a0a08437573746f6d6572',
  Refund: '080a06526566756e64',
}

/** Java's message indexes (it never writes the single-zero shortcut). */
export const JAVA_INDEXES: Readonly<Record<string, string>> = {
  '[0]': '0200',
  '[1]': '0202',
  '[0,0]': '040000',
}

/** `ProtoMain.order(i).toByteArray()`: the message bytes of order 0 and order 1. */
export const ORDER_BYTES: readonly string[] = [
  '0881808080808080101205534b552d301a040001ac0222050a01611000220e0a036269671081808080808080102a070a02433010b96032090880f2d6ca0610f40338014206636172642d30520f0a024e3010ffffffffffffffffff015a030000ff',
  '0882808080808080101205534b552d311a040102ac0222050a01611001220e0a036269671082808080808080102a070a02433110b96032090881f2d6ca0610f40338014a03444531520f0a024e3110ffffffffffffffffff015a030001ff',
]

/** `Refund.newBuilder().setOrderId(-5)` and `Order.Customer.newBuilder().setName("x").setPoints(1)`. */
export const REFUND_BYTES = '08fbffffffffffffffff01'
export const CUSTOMER_BYTES = '0a01781001'

/** Order `i` as the deserializer reads it (the rule of ProtoMain.order). */
export function expectedOrder(i: number): Record<string, unknown> {
  return {
    id: 9007199254740993n + BigInt(i),
    sku: `SKU-${i}`,
    lines: [i, i + 1, 300],
    counts: { a: i, big: 9007199254740993n + BigInt(i) },
    ship: { city: `C${i}`, zip: 12345 },
    at: { seconds: 1767225600 + i, nanos: 500 },
    status: 'PAID',
    ...(i % 2 === 0 ? { card: `card-${i}`, payment: 'card' } : { iban: `DE${i}`, payment: 'iban' }),
    customer: { name: `N${i}`, points: 18446744073709551615n },
    blob: Buffer.from([0, i, 255]),
  }
}
