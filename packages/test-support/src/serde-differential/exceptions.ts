/**
 * The cases where the library answers otherwise than the registry, each with both answers (as `describeOutcome`
 * writes them) and why: `difference`s are legitimate (the library checks what the registry does not), `gap`s are
 * defects still to fix, listed so that the rest of the differential guards what agrees. The serde-level
 * differential fails on any difference not listed here, and on a listed one whose answers are no longer these (a
 * fixed gap must leave the list).
 */
export interface DifferentialException {
  kind: 'difference' | 'gap'
  /** What every path of the library gives. */
  node: string
  /** What the registry's answer comes to. */
  registry: string
  /** Which of the two `x-serde rules test` gives: it runs the rules alone, as the registry does, with this engine. */
  rulesTest: 'node' | 'registry'
  why: string
}

export const DIFFERENTIAL_EXCEPTIONS: Record<string, DifferentialException> = {
  'avro-r13-write-2': {
    kind: 'difference',
    node: '{"error":"TypeError INVALID_DATA: Value does not match the Avro schema shop.Order: qty: expected int, got number 2147483648 (outside the 32-bit range)"}',
    registry:
      '{"record":{"id":9223372036854775807,"big":9007199254740992,"total":1e+21,"whole":100,"ratio":1.5,"qty":2147483648,"name":"Ünïcödé ✓","active":true,"payload":"Ã©","digest":[1,2,3,4],"price":";Éÿ","at":1600000000001,"micros":1,"day":22080,"status":"PENDING","note":"x","amount":0,"tags":["x"],"attrs":{"color":"blue"},"counts":{"z":-5},"address":{"city":"Bergen","geo":{"lat":60.39,"lon":5.32}},"lines":[{"sku":"z","qty":-1,"price":0.1}]}}',
    rulesTest: 'registry',
    why: "The WRITE transform makes qty 2147483648, beyond the schema's 32-bit int: the serializer cannot encode that record and refuses it (TypeError, INVALID_DATA). The registry checks no record against a schema and passes it (Java's serde 3.3 applies no WRITE transform and writes the value as given).",
  },
  'avro-r20-read-0': {
    kind: 'difference',
    node: '{"refused":[["wrong-type","ERROR"]]}',
    registry:
      '{"record":{"id":42,"big":1152921504606846977,"total":19.99,"whole":5,"ratio":0.5,"qty":"many","name":"Widget","active":true,"payload":"\\u0000\\u0001ÿ","digest":[-34,-83,-66,-17],"price":"09","at":1714557600000,"micros":1714557600000123,"day":19844,"status":"ACTIVE","note":"first","amount":7.5,"tags":["a","b"],"attrs":{"color":"red","size":"L"},"counts":{"x":9007199254740993,"y":1},"address":{"city":"Oslo","geo":{"lat":59.9,"lon":10.7}},"lines":[{"sku":"x","qty":2,"price":2.5},{"sku":"y","qty":1,"price":10}]}}',
    rulesTest: 'registry',
    why: 'The READ transform turns the declared int qty into text: the deserializer refuses the record with a RuleViolationError naming the transform (action ERROR) instead of handing out a value its schema cannot hold. The registry checks no record against a schema and passes it.',
  },
  'avro-r21-write-0': {
    kind: 'difference',
    node: '{"error":"TypeError INVALID_DATA: Value does not match the Avro schema shop.Order: big: expected long (a safe integer number or a bigint), got undefined (not a number or bigint); total: expected double, got undefined; whole: expected double, got undefined; ratio: expected float, got undefined; qty: expected int, got undefined; active: expected boolean, got undefined; payload: expected bytes (a Uint8Array), got undefined; digest: expected fixed shop.Digest (4 bytes), got undefined; price: expected decimal(9,2) (a decimal string, number or bigint with at most 2 fraction digits and 9 digits), got undefined (not a decimal string, number or bigint); at: expected timestamp-millis (a Date or a safe integer number of milliseconds), got undefined (not a Date or number); and 8 more"}',
    registry: '{"record":{"name":"Widget","id":42}}',
    rulesTest: 'registry',
    why: "The CEL transform returns a record of two of the schema's fields: the serializer cannot encode it and refuses it (TypeError, INVALID_DATA). The registry checks no record against a schema and passes it (Java's serde 3.3 writes the value as given).",
  },
  'avro-r20-read-1': {
    kind: 'difference',
    node: '{"refused":[["wrong-type","ERROR"]]}',
    registry:
      '{"record":{"id":-1,"big":-9007199254740993,"total":-5.5,"whole":0,"ratio":-2.25,"qty":"many","name":"","active":false,"payload":"","digest":[0,0,0,0],"price":"ÿ","at":-1000,"micros":-1,"day":-1,"status":"DELETED","note":null,"amount":null,"tags":[],"attrs":{},"counts":{},"address":{"city":"","geo":{"lat":-1.5,"lon":0}},"lines":[]}}',
    rulesTest: 'registry',
    why: 'The READ transform turns the declared int qty into text: the deserializer refuses the record with a RuleViolationError naming the transform (action ERROR) instead of handing out a value its schema cannot hold. The registry checks no record against a schema and passes it.',
  },
  'avro-r21-write-1': {
    kind: 'difference',
    node: '{"error":"TypeError INVALID_DATA: Value does not match the Avro schema shop.Order: big: expected long (a safe integer number or a bigint), got undefined (not a number or bigint); total: expected double, got undefined; whole: expected double, got undefined; ratio: expected float, got undefined; qty: expected int, got undefined; active: expected boolean, got undefined; payload: expected bytes (a Uint8Array), got undefined; digest: expected fixed shop.Digest (4 bytes), got undefined; price: expected decimal(9,2) (a decimal string, number or bigint with at most 2 fraction digits and 9 digits), got undefined (not a decimal string, number or bigint); at: expected timestamp-millis (a Date or a safe integer number of milliseconds), got undefined (not a Date or number); and 8 more"}',
    registry: '{"record":{"name":"","id":-1}}',
    rulesTest: 'registry',
    why: "The CEL transform returns a record of two of the schema's fields: the serializer cannot encode it and refuses it (TypeError, INVALID_DATA). The registry checks no record against a schema and passes it (Java's serde 3.3 writes the value as given).",
  },
  'avro-r20-read-2': {
    kind: 'difference',
    node: '{"refused":[["wrong-type","ERROR"]]}',
    registry:
      '{"record":{"id":9223372036854775807,"big":9007199254740992,"total":1e+21,"whole":100,"ratio":1.5,"qty":"many","name":"Ünïcödé ✓","active":true,"payload":"Ã©","digest":[1,2,3,4],"price":";Éÿ","at":1600000000001,"micros":1,"day":22080,"status":"PENDING","note":"x","amount":0,"tags":["x"],"attrs":{"color":"blue"},"counts":{"z":-5},"address":{"city":"Bergen","geo":{"lat":60.39,"lon":5.32}},"lines":[{"sku":"z","qty":-1,"price":0.1}]}}',
    rulesTest: 'registry',
    why: 'The READ transform turns the declared int qty into text: the deserializer refuses the record with a RuleViolationError naming the transform (action ERROR) instead of handing out a value its schema cannot hold. The registry checks no record against a schema and passes it.',
  },
  'avro-r21-write-2': {
    kind: 'difference',
    node: '{"error":"TypeError INVALID_DATA: Value does not match the Avro schema shop.Order: big: expected long (a safe integer number or a bigint), got undefined (not a number or bigint); total: expected double, got undefined; whole: expected double, got undefined; ratio: expected float, got undefined; qty: expected int, got undefined; active: expected boolean, got undefined; payload: expected bytes (a Uint8Array), got undefined; digest: expected fixed shop.Digest (4 bytes), got undefined; price: expected decimal(9,2) (a decimal string, number or bigint with at most 2 fraction digits and 9 digits), got undefined (not a decimal string, number or bigint); at: expected timestamp-millis (a Date or a safe integer number of milliseconds), got undefined (not a Date or number); and 8 more"}',
    registry: '{"record":{"name":"Ünïcödé ✓","id":9223372036854775807}}',
    rulesTest: 'registry',
    why: "The CEL transform returns a record of two of the schema's fields: the serializer cannot encode it and refuses it (TypeError, INVALID_DATA). The registry checks no record against a schema and passes it (Java's serde 3.3 writes the value as given).",
  },
  'json-r14-read-1': {
    kind: 'difference',
    node: '{"refused":[["optional-set","DLQ"]]}',
    registry:
      '{"record":{"orderId":"","amount":-5.5,"whole":0,"count":0,"big":-9007199254740993,"email":"invalid","when":"2030-01-01T00:00:00Z","items":[],"meta":{},"optional":"x","flags":[],"kind":"B"}}',
    rulesTest: 'node',
    why: "A field named optional: the CEL engine (@marcbachmann/cel-js) reads `optional` as its namespace of optional values, so `optional != null` cannot be evaluated and the rule fails on every record; the registry's CEL reads the field. The engine-level corpus lists the same difference.",
  },
  'json-r14-read-2': {
    kind: 'difference',
    node: '{"refused":[["kind-open","DLQ"],["optional-set","DLQ"],["all-flags","DLQ"]]}',
    registry: '{"refused":[["kind-open","DLQ"],["all-flags","DLQ"]]}',
    rulesTest: 'node',
    why: "A field named optional: the CEL engine (@marcbachmann/cel-js) reads `optional` as its namespace of optional values, so `optional != null` cannot be evaluated and the rule fails on every record; the registry's CEL reads the field. The engine-level corpus lists the same difference.",
  },
  'json-r14-write-1': {
    kind: 'difference',
    node: '{"refused":[["optional-set","DLQ"]]}',
    registry:
      '{"record":{"orderId":"","amount":-5.5,"whole":0,"count":0,"big":-9007199254740993,"email":"invalid","when":"2030-01-01T00:00:00Z","items":[],"meta":{},"optional":"x","flags":[],"kind":"B"}}',
    rulesTest: 'node',
    why: "A field named optional: the CEL engine (@marcbachmann/cel-js) reads `optional` as its namespace of optional values, so `optional != null` cannot be evaluated and the rule fails on every record; the registry's CEL reads the field. The engine-level corpus lists the same difference.",
  },
  'json-r14-write-2': {
    kind: 'difference',
    node: '{"refused":[["kind-open","DLQ"],["optional-set","DLQ"],["all-flags","DLQ"]]}',
    registry: '{"refused":[["kind-open","DLQ"],["all-flags","DLQ"]]}',
    rulesTest: 'node',
    why: "A field named optional: the CEL engine (@marcbachmann/cel-js) reads `optional` as its namespace of optional values, so `optional != null` cannot be evaluated and the rule fails on every record; the registry's CEL reads the field. The engine-level corpus lists the same difference.",
  },
  'protobuf-r9-write-2': {
    kind: 'difference',
    node: '{"error":"TypeError INVALID_DATA: Value does not match the Protobuf message shop.User: level: expected int32 (an integer from -2^31 to 2^31 - 1), got number 2147483648"}',
    registry:
      '{"record":{"userId":-9007199254740993,"score":1e+21,"level":2147483648,"nickname":"Ünïcödé ✓","roles":["ops"],"labels":{"env":"dev"},"profile":{"age":65,"country":"DK","emails":["a@b.c","d@e.f"]},"updatedAt":"2100-01-01T00:00:00.123456789Z","ttl":"-90.250s","wrapped":9007199254740993,"color":"RED","blob":"gH8=","counter":18446744073709551615,"active":true,"extra":{"list":[true,null]},"ratio":0.25}}',
    rulesTest: 'registry',
    why: "The WRITE transform makes level 2147483648, beyond the schema's 32-bit int: the serializer cannot encode that record and refuses it (TypeError, INVALID_DATA). The registry checks no record against a schema and passes it (Java's serde 3.3 applies no WRITE transform and writes the value as given).",
  },
}

/** A case where `x-serde rules test` alone answers otherwise than the serializer (which agrees with the registry). */
export interface RulesTestException {
  /** What `rules test` prints, as `describeOutcome` writes it. */
  rulesTest: string
  /** What the serializer does, and the registry answers. */
  serializer: string
  why: string
}

export const RULES_TEST_EXCEPTIONS: Record<string, RulesTestException> = {}
