// The VALIDITY cases: one schema each (with the schemas it references, by import path or $ref), sent to a real
// Apicurio Registry 3 under an artifact-level VALIDITY rule (level FULL unless `level` says SYNTAX_ONLY) by
// generate-validity.mjs. `looseDescription` says why a cause description is compared by its start only;
// `registryWrong` says why the registry's answer is wrong, and the case expects the schema to be valid.

/** @type {{ id: string, format: "AVRO" | "JSON" | "PROTOBUF", level?: "SYNTAX_ONLY" | "FULL", schema: string, references?: Record<string, string>, looseDescription?: string, registryWrong?: string }[]} */
export const VALIDITY_CASES = [
  {
    id: 'protobuf-dup-enum-name',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nenum E {\n  E_UNKNOWN = 0;\n  E_ONE = 1;\n  E_ONE = 2;\n}\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-dup-enum-num',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nenum E {\n  E_UNKNOWN = 0;\n  E_ONE = 1;\n  E_UNO = 1;\n}\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-dup-enum-num-alias',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nenum E {\n  option allow_alias = true;\n  E_UNKNOWN = 0;\n  E_ONE = 1;\n  E_UNO = 1;\n}\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-dup-message',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A { string a = 1; }\nmessage A { string b = 1; }\n',
  },
  {
    id: 'protobuf-dup-name',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 1;\n  int32 a = 2;\n}\n',
  },
  {
    id: 'protobuf-dup-rpc',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A { string a = 1; }\nservice S {\n  rpc Get (A) returns (A);\n  rpc Get (A) returns (A);\n}\n',
  },
  {
    id: 'protobuf-dup-service',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A { string a = 1; }\nservice S { rpc Get (A) returns (A); }\nservice S { rpc Put (A) returns (A); }\n',
  },
  {
    id: 'protobuf-enum-empty',
    format: 'PROTOBUF',
    schema: 'syntax = "proto2";\nenum E { }\nmessage A { optional E e = 1; }\n',
  },
  {
    id: 'protobuf-enum-first-nonzero',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nenum E { E_ONE = 1; }\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-enum-reserved-used',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nenum E {\n  reserved 2;\n  E_UNKNOWN = 0;\n  E_TWO = 2;\n}\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-enum-value-clash',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nenum E { UNKNOWN = 0; }\nenum F { UNKNOWN = 0; }\nmessage A { E e = 1; F f = 2; }\n',
  },
  {
    id: 'protobuf-extend-outside-range',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto2";\nmessage A {\n  optional string a = 1;\n  extensions 100 to 200;\n}\nextend A {\n  optional int32 b = 300;\n}\n',
  },
  {
    id: 'protobuf-extend-undef',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto2";\nmessage A {\n  optional string a = 1;\n  extensions 100 to 200;\n}\nextend A {\n  optional int32 b = 150;\n}\nextend Missing {\n  optional int32 c = 150;\n}\n',
  },
  {
    id: 'protobuf-field-in-ext-range',
    format: 'PROTOBUF',
    schema: 'syntax = "proto2";\nmessage A {\n  optional string a = 150;\n  extensions 100 to 200;\n}\n',
  },
  {
    id: 'protobuf-field-nested-clash',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  message B { string x = 1; }\n  B B = 1;\n}\n',
  },
  {
    id: 'protobuf-group-ok',
    format: 'PROTOBUF',
    schema: 'syntax = "proto2";\nmessage A {\n  optional group G = 1 {\n    optional int32 x = 2;\n  }\n}\n',
  },
  {
    id: 'protobuf-import-missing',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A {\n  other.B b = 1;\n}\n',
  },
  {
    id: 'protobuf-import-missing-unused',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A {\n  string b = 1;\n}\n',
  },
  {
    id: 'protobuf-json-name-clash',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string foo_bar = 1;\n  string fooBar = 2;\n}\n',
  },
  {
    id: 'protobuf-map-float-key',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  map<float, string> m = 1;\n}\n',
  },
  {
    id: 'protobuf-map-msg-key',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage B { string b = 1; }\nmessage A {\n  map<B, string> m = 1;\n}\n',
  },
  {
    id: 'protobuf-map-ok',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage B { string b = 1; }\nmessage A {\n  map<string, B> m = 1;\n  map<int64, A.C> n = 2;\n  message C { int32 c = 1; }\n}\n',
  },
  {
    id: 'protobuf-map-undef',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  map<string, Missing> m = 1;\n}\n',
  },
  {
    id: 'protobuf-neg-enum',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nenum E { E_ZERO = 0; E_NEG = -1; }\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-nested-qualified-ok',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\npackage p.q;\nmessage Outer {\n  message Inner { string a = 1; }\n  Inner i = 1;\n}\nmessage Other {\n  Outer.Inner i = 1;\n  p.q.Outer.Inner j = 2;\n  .p.q.Outer k = 3;\n  q.Outer l = 4;\n}\n',
  },
  {
    id: 'protobuf-nested-unqualified-outside',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage Outer {\n  message Inner { string a = 1; }\n}\nmessage Other {\n  Inner i = 1;\n}\n',
  },
  {
    id: 'protobuf-oneof-dup',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A {\n  string a = 1;\n  oneof o {\n    int32 b = 1;\n    string c = 2;\n  }\n}\n',
  },
  {
    id: 'protobuf-oneof-undef',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  oneof o {\n    Missing b = 1;\n    string c = 2;\n  }\n}\n',
  },
  {
    id: 'protobuf-packed-string',
    format: 'PROTOBUF',
    schema: 'syntax = "proto2";\nmessage A {\n  repeated string a = 1 [packed = true];\n}\n',
  },
  {
    id: 'protobuf-proto2-enum-dup-names-scope',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto2";\nmessage A {\n  enum E { X = 1; }\n  enum F { X = 2; }\n  optional E e = 1;\n}\n',
  },
  {
    id: 'protobuf-proto3-default',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 1 [default = "x"];\n}\n',
  },
  {
    id: 'protobuf-reserved-name-used',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  reserved "b";\n  string a = 1;\n  int32 b = 2;\n}\n',
  },
  {
    id: 'protobuf-reserved-num-used',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  reserved 2, 5 to 7;\n  string a = 1;\n  int32 b = 6;\n}\n',
  },
  {
    id: 'protobuf-reserved-overlap',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  reserved 1 to 5, 3 to 8;\n  string a = 10;\n}\n',
  },
  {
    id: 'protobuf-rpc-enum',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A { string a = 1; }\nenum E { E_UNKNOWN = 0; }\nservice S {\n  rpc Get (A) returns (E);\n}\n',
  },
  {
    id: 'protobuf-rpc-scalar',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A { string a = 1; }\nservice S {\n  rpc Get (A) returns (string);\n}\n',
  },
  {
    id: 'protobuf-rpc-undef-req',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A { string a = 1; }\nservice S {\n  rpc Get (Missing) returns (A);\n}\n',
  },
  {
    id: 'protobuf-rpc-undef-resp',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A { string a = 1; }\nservice S {\n  rpc Get (A) returns (stream Missing);\n}\n',
  },
  {
    id: 'protobuf-self-ref-ok',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage Node { repeated Node children = 1; Node parent = 2; }\n',
  },
  {
    id: 'protobuf-tag0',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 0;\n}\n',
  },
  {
    id: 'protobuf-tag18999',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 18999;\n  string b = 20000;\n}\n',
  },
  {
    id: 'protobuf-tag19000',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 19000;\n}\n',
  },
  {
    id: 'protobuf-tag19999',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 19999;\n}\n',
  },
  {
    id: 'protobuf-tag-max',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 536870911;\n}\n',
  },
  {
    id: 'protobuf-tag-max1',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 536870912;\n}\n',
  },
  {
    id: 'protobuf-type-is-field',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 1;\n  a b = 2;\n}\n',
  },
  {
    id: 'protobuf-undef-in-second-msg-pkg',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\npackage com.example;\nmessage A { string a = 1; }\nmessage B { com.other.A a = 1; }\n',
  },
  {
    id: 'protobuf-undef-nested',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  message B {\n    Missing m = 1;\n  }\n  B b = 1;\n}\n',
  },
  {
    id: 'protobuf-wellknown-noimport',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  google.protobuf.Timestamp t = 1;\n}\n',
  },
  {
    id: 'protobuf-wellknown-noimport-struct',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  google.protobuf.Struct t = 1;\n}\n',
  },
  {
    id: 'protobuf-wellknown-ok',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\nimport "google/protobuf/duration.proto";\nimport "google/protobuf/any.proto";\nimport "google/protobuf/struct.proto";\nimport "google/protobuf/wrappers.proto";\nimport "google/protobuf/empty.proto";\nimport "google/protobuf/field_mask.proto";\nimport "google/type/money.proto";\nimport "google/type/date.proto";\nmessage A {\n  google.protobuf.Timestamp t = 1;\n  google.protobuf.Duration d = 2;\n  google.protobuf.Any a = 3;\n  google.protobuf.Struct s = 4;\n  google.protobuf.StringValue w = 5;\n  google.protobuf.FieldMask f = 6;\n  google.type.Money m = 7;\n  google.type.Date dt = 8;\n  google.protobuf.Value v = 9;\n}\nservice S { rpc Ping (google.protobuf.Empty) returns (google.protobuf.Empty); }\n',
  },
  {
    id: 'protobuf-wrong-kind-field',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nservice S { rpc Get (A) returns (A); }\nmessage A { S s = 1; }\n',
  },
  {
    id: 'protobuf-alias-no-alias',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nenum E {\n  option allow_alias = true;\n  E_ZERO = 0;\n  E_ONE = 1;\n}\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-custom-option',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "google/protobuf/descriptor.proto";\nextend google.protobuf.FieldOptions {\n  string my_opt = 50000;\n}\nmessage A {\n  string a = 1 [(my_opt) = "x"];\n}\n',
  },
  {
    id: 'protobuf-datetime-import',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "google/type/datetime.proto";\nmessage A { string a = 1; }\n',
  },
  {
    id: 'protobuf-decimal-import',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "additionalTypes/decimal.proto";\nmessage A { additionalTypes.Decimal d = 1; }\n',
  },
  {
    id: 'protobuf-enum-msg-clash',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nenum E { A = 0; }\nmessage A { string a = 1; }\n',
  },
  {
    id: 'protobuf-json-clash-case',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string Foo = 1;\n  string foo = 2;\n}\n',
  },
  {
    id: 'protobuf-json-clash-option',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A {\n  string a = 1 [json_name = "x"];\n  string b = 2 [json_name = "x"];\n}\n',
  },
  {
    id: 'protobuf-json-clash-p2',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto2";\nmessage A {\n  optional string foo_bar = 1;\n  optional string fooBar = 2;\n}\n',
  },
  {
    id: 'protobuf-json-clash-underscore',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string foo_bar = 1;\n  string foo__bar = 2;\n}\n',
  },
  {
    id: 'protobuf-leading-dot-bad',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\npackage p;\nmessage A { .A a = 1; }\n',
  },
  {
    id: 'protobuf-map-entry-clash',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage A {\n  map<string, string> foo = 1;\n  message FooEntry { string x = 1; }\n}\n',
  },
  {
    id: 'protobuf-map-enum-value',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nenum E { E_ZERO = 0; }\nmessage A {\n  map<string, E> m = 1;\n}\n',
  },
  {
    id: 'protobuf-map-repeated',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A { repeated map<string, string> m = 1; }\n',
  },
  {
    id: 'protobuf-map-undef-key',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  map<Missing, string> m = 1;\n}\n',
  },
  {
    id: 'protobuf-oneof-name-clash',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A {\n  string o = 1;\n  oneof o { string b = 2; }\n}\n',
  },
  {
    id: 'protobuf-packed-nonrepeated',
    format: 'PROTOBUF',
    schema: 'syntax = "proto2";\nmessage A { optional int32 a = 1 [packed = true]; }\n',
  },
  {
    id: 'protobuf-packed-ok',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto2";\nenum E { X = 1; }\nmessage A { repeated int32 a = 1 [packed = true]; repeated E e = 2 [packed = true]; }\n',
  },
  {
    id: 'protobuf-pkg-type-clash',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\npackage a.b;\nmessage a { string x = 1; }\n',
  },
  {
    id: 'protobuf-plugin-import',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "google/protobuf/compiler/plugin.proto";\nmessage A { string a = 1; }\n',
  },
  {
    id: 'protobuf-proto2-default-bad',
    format: 'PROTOBUF',
    schema: 'syntax = "proto2";\nmessage A { optional int32 b = 2 [default = "x"]; }\n',
  },
  {
    id: 'protobuf-proto2-default-ok',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto2";\nmessage A { optional string a = 1 [default = "x"]; optional int32 b = 2 [default = 5]; }\n',
  },
  {
    id: 'protobuf-reserved-name-enum',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nenum E { reserved "E_ONE"; E_ZERO = 0; E_ONE = 1; }\nmessage A { E e = 1; }\n',
  },
  {
    id: 'protobuf-shadow',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage B { string x = 1; }\nmessage A {\n  int32 B = 1;\n  B b = 2;\n}\n',
  },
  {
    id: 'protobuf-shadow-partial',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nmessage B { message C { string x = 1; } }\nmessage A {\n  message B { string y = 1; }\n  B.C c = 1;\n}\n',
  },
  {
    id: 'protobuf-wk-bogus',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\nmessage A { google.protobuf.Bogus t = 1; }\n',
  },
  {
    id: 'protobuf-wk-public-chain',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "google/protobuf/type.proto";\nmessage A { google.protobuf.Any a = 1; }\n',
  },
  {
    id: 'avro-bad-default',
    format: 'AVRO',
    schema: '{"type":"record","name":"A","fields":[{"name":"a","type":"int","default":"x"}]}',
  },
  {
    id: 'avro-bad-name',
    format: 'AVRO',
    schema: '{"type":"record","name":"1A","fields":[]}',
  },
  {
    id: 'avro-dup-field',
    format: 'AVRO',
    schema: '{"type":"record","name":"A","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]}',
  },
  {
    id: 'avro-dup-symbol',
    format: 'AVRO',
    schema: '{"type":"enum","name":"E","symbols":["A","A"]}',
  },
  {
    id: 'avro-enum-default-missing',
    format: 'AVRO',
    schema: '{"type":"enum","name":"E","symbols":["A"],"default":"B"}',
  },
  {
    id: 'avro-not-json',
    format: 'AVRO',
    schema: '{"type":"record"',
  },
  {
    id: 'avro-record-no-name',
    format: 'AVRO',
    schema: '{"type":"record","fields":[]}',
  },
  {
    id: 'avro-redefine',
    format: 'AVRO',
    schema:
      '{"type":"record","name":"A","fields":[{"name":"a","type":{"type":"record","name":"A","fields":[]}}]}',
  },
  {
    id: 'avro-undefined-type',
    format: 'AVRO',
    schema: '{"type":"record","name":"A","fields":[{"name":"a","type":"Missing"}]}',
  },
  {
    id: 'avro-union-default-second',
    format: 'AVRO',
    schema: '{"type":"record","name":"A","fields":[{"name":"a","type":["null","string"],"default":"x"}]}',
  },
  {
    id: 'avro-unknown-type',
    format: 'AVRO',
    schema: '{"type":"nope"}',
  },
  {
    id: 'avro-valid-default',
    format: 'AVRO',
    schema: '{"type":"record","name":"A","fields":[{"name":"a","type":"int","default":1}]}',
  },
  {
    id: 'avro-valid-union',
    format: 'AVRO',
    schema: '{"type":"record","name":"A","fields":[{"name":"a","type":["null","string"],"default":null}]}',
  },
  {
    id: 'json-array',
    format: 'JSON',
    schema: '[1,2]',
  },
  {
    id: 'json-bool',
    format: 'JSON',
    schema: 'true',
  },
  {
    id: 'json-d2019',
    format: 'JSON',
    schema: '{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object"}',
  },
  {
    id: 'json-draft4-excl',
    format: 'JSON',
    schema: '{"$schema":"http://json-schema.org/draft-04/schema#","type":"number","exclusiveMinimum":5}',
  },
  {
    id: 'json-enum-obj',
    format: 'JSON',
    schema: '{"enum":{"a":1}}',
  },
  {
    id: 'json-items-num',
    format: 'JSON',
    schema: '{"type":"array","items":5}',
  },
  {
    id: 'json-minlen-str',
    format: 'JSON',
    schema: '{"type":"string","minLength":"3"}',
  },
  {
    id: 'json-notjson',
    format: 'JSON',
    schema: '{"type": "object",',
    looseDescription: 'Jackson and JavaScript word a JSON syntax error differently',
  },
  {
    id: 'json-ok',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"type":"string"}}}',
  },
  {
    id: 'json-pattern-num',
    format: 'JSON',
    schema: '{"type":"string","pattern":5}',
  },
  {
    id: 'json-props-arr',
    format: 'JSON',
    schema: '{"type":"object","properties":[1]}',
  },
  {
    id: 'json-props-nested',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"type":"strin"}}}',
  },
  {
    id: 'json-ref-bad',
    format: 'JSON',
    schema: '{"$ref":"#/definitions/missing"}',
  },
  {
    id: 'json-ref-ext',
    format: 'JSON',
    schema: '{"$ref":"other.json"}',
  },
  {
    id: 'json-required-str',
    format: 'JSON',
    schema: '{"type":"object","required":"a"}',
  },
  {
    id: 'json-string',
    format: 'JSON',
    schema: '"x"',
  },
  {
    id: 'json-typearrbad',
    format: 'JSON',
    schema: '{"type": ["string", 5]}',
  },
  {
    id: 'json-typebad',
    format: 'JSON',
    schema: '{"type": "strin"}',
  },
  {
    id: 'json-typenum',
    format: 'JSON',
    schema: '{"type": 5}',
  },
  {
    id: 'json-typeobj',
    format: 'JSON',
    schema: '{"type": {"a":1}}',
  },
  {
    id: 'json-addprops-num',
    format: 'JSON',
    schema: '{"type":"object","additionalProperties":5}',
  },
  {
    id: 'json-allof-item-bad',
    format: 'JSON',
    schema: '{"allOf":[{"type":"string"},{"type":5}]}',
  },
  {
    id: 'json-allof-obj',
    format: 'JSON',
    schema: '{"allOf":{"type":"string"}}',
  },
  {
    id: 'json-const-d7',
    format: 'JSON',
    schema: '{"const":{"a":1}}',
  },
  {
    id: 'json-contains-num',
    format: 'JSON',
    schema: '{"type":"array","contains":5}',
  },
  {
    id: 'json-d2020-bad',
    format: 'JSON',
    schema: '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"strin"}',
  },
  {
    id: 'json-d2020-ok',
    format: 'JSON',
    schema: '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string"}',
  },
  {
    id: 'json-d4-ok',
    format: 'JSON',
    schema:
      '{"$schema":"http://json-schema.org/draft-04/schema#","type":"number","exclusiveMinimum":true,"minimum":1}',
  },
  {
    id: 'json-default-bad',
    format: 'JSON',
    schema: '{"type":"string","default":5}',
  },
  {
    id: 'json-defs-unused-bad',
    format: 'JSON',
    schema: '{"definitions":{"a":{"type":"strin"}},"type":"object"}',
  },
  {
    id: 'json-dependencies-bad',
    format: 'JSON',
    schema: '{"type":"object","dependencies":{"a":5}}',
  },
  {
    id: 'json-enum-empty',
    format: 'JSON',
    schema: '{"enum":[]}',
  },
  {
    id: 'json-format-num',
    format: 'JSON',
    schema: '{"type":"string","format":5}',
  },
  {
    id: 'json-id-num',
    format: 'JSON',
    schema: '{"$id":5,"type":"string"}',
  },
  {
    id: 'json-if-num',
    format: 'JSON',
    schema: '{"if":5,"then":{"type":"string"}}',
  },
  {
    id: 'json-items-arr-bad',
    format: 'JSON',
    schema: '{"type":"array","items":[{"type":"string"},5]}',
  },
  {
    id: 'json-maxlen-neg',
    format: 'JSON',
    schema: '{"type":"string","maxLength":-1}',
  },
  {
    id: 'json-minimum-str',
    format: 'JSON',
    schema: '{"type":"number","minimum":"x"}',
  },
  {
    id: 'json-minlen-float',
    format: 'JSON',
    schema: '{"type":"string","minLength":1.5}',
  },
  {
    id: 'json-multipleof-str',
    format: 'JSON',
    schema: '{"type":"number","multipleOf":"x"}',
  },
  {
    id: 'json-not-num',
    format: 'JSON',
    schema: '{"not":5}',
  },
  {
    id: 'json-pattern-bad-regex',
    format: 'JSON',
    schema: '{"type":"string","pattern":"(["}',
    looseDescription: 'Java and JavaScript word a regular expression error differently',
  },
  {
    id: 'json-patternprops-bad',
    format: 'JSON',
    schema: '{"patternProperties":{"^a":5}}',
  },
  {
    id: 'json-propnames-num',
    format: 'JSON',
    schema: '{"type":"object","propertyNames":5}',
  },
  {
    id: 'json-props-val-num',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":5}}',
  },
  {
    id: 'json-ref-cycle-ok',
    format: 'JSON',
    schema:
      '{"definitions":{"n":{"type":"object","properties":{"next":{"$ref":"#/definitions/n"}}}},"$ref":"#/definitions/n"}',
  },
  {
    id: 'json-ref-missing-leaf',
    format: 'JSON',
    schema: '{"definitions":{"a":{"type":"string"}},"properties":{"x":{"$ref":"#/definitions/b"}}}',
  },
  {
    id: 'json-ref-target-bad',
    format: 'JSON',
    schema: '{"definitions":{"a":{"type":"strin"}},"properties":{"x":{"$ref":"#/definitions/a"}}}',
  },
  {
    id: 'json-required-num',
    format: 'JSON',
    schema: '{"type":"object","required":[1]}',
  },
  {
    id: 'json-root-null',
    format: 'JSON',
    schema: 'null',
  },
  {
    id: 'json-root-num',
    format: 'JSON',
    schema: '5',
  },
  {
    id: 'json-schema-unknown',
    format: 'JSON',
    schema: '{"$schema":"http://example.com/x","type":"string"}',
  },
  {
    id: 'json-two-errors',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"type":"strin"},"b":{"type":5}}}',
  },
  {
    id: 'json-type-empty',
    format: 'JSON',
    schema: '{"type":[]}',
  },
  {
    id: 'json-unknown-kw',
    format: 'JSON',
    schema: '{"type":"string","foo":5}',
  },
  {
    id: 'protobuf-ref-r1',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A { other.B b = 1; other.E e = 2; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r2',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A { other.Missing b = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r3',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "other.proto";\nimport "google/protobuf/timestamp.proto";\nmessage A { other.B b = 1; google.protobuf.Timestamp t = 2; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r4',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A { other.B b = 1; string c = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r5',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "nopkg.proto";\nmessage A { C c = 1; }\n',
    references: {
      'nopkg.proto': 'syntax = "proto3";\nmessage C { string c = 1; }\n',
    },
  },
  {
    id: 'protobuf-ref-r6',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "a.proto";\nmessage A { mid.M m = 1; deep.D d = 2; }\n',
    references: {
      'a.proto': 'syntax = "proto3";\npackage mid;\nimport "b.proto";\nmessage M { deep.D d = 1; }\n',
      'b.proto': 'syntax = "proto3";\npackage deep;\nmessage D { string d = 1; }\n',
    },
  },
  {
    id: 'protobuf-ref-r6b',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "a.proto";\nmessage A { mid.M m = 1; }\n',
    references: {
      'a.proto': 'syntax = "proto3";\npackage mid;\nimport "b.proto";\nmessage M { deep.D d = 1; }\n',
      'b.proto': 'syntax = "proto3";\npackage deep;\nmessage D { string d = 1; }\n',
    },
    registryWrong:
      'the registry refuses a reference that imports another reference declaring a package, though protoc and Wire accept these files',
  },
  {
    id: 'protobuf-ref-r6pub',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "a.proto";\nmessage A { mid.M m = 1; deep.D d = 2; }\n',
    references: {
      'a.proto': 'syntax = "proto3";\npackage mid;\nimport public "b.proto";\nmessage M { deep.D d = 1; }\n',
      'b.proto': 'syntax = "proto3";\npackage deep;\nmessage D { string d = 1; }\n',
    },
    registryWrong:
      'the registry refuses a reference that imports another reference declaring a package, though protoc and Wire accept these files',
  },
  {
    id: 'protobuf-ref-r7',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\npackage main;\nimport "same.proto";\nmessage A { S s = 1; }\n',
    references: {
      'same.proto': 'syntax = "proto3";\npackage main;\nmessage S { string s = 1; }\n',
    },
  },
  {
    id: 'protobuf-ref-r8',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A { other.B b = 1; }\n',
    references: {
      'other.proto': 'syntax = "proto3";\npackage other;\nmessage B { string b = 1; int32 c = 1; }\n',
    },
  },
  {
    id: 'protobuf-ref-r9',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nmessage A { other.B b = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r10',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "other.proto";\nimport "missing.proto";\nmessage A { other.B b = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r11',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A { string b = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r12',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A { B b = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r13',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\npackage other;\nimport "other.proto";\nmessage A { B b = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r14',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\npackage other;\nimport "other.proto";\nmessage B { string x = 1; }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r15',
    format: 'PROTOBUF',
    schema:
      'syntax = "proto3";\nimport "other.proto";\nmessage A { map<string, other.B> m = 1; }\nservice S { rpc Get (other.B) returns (A); }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r16',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nservice S { rpc Get (other.E) returns (other.B); }\n',
    references: {
      'other.proto':
        'syntax = "proto3";\npackage other;\nmessage B { string b = 1; }\nenum E { E_UNKNOWN = 0; }\n',
    },
  },
  {
    id: 'protobuf-ref-r17',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "other.proto";\nmessage A { string a = 1; string a2 = 1; }\n',
    references: {},
  },
  {
    id: 'protobuf-ref-r6c',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "a.proto";\nmessage A { M m = 1; }\n',
    references: {
      'a.proto': 'syntax = "proto3";\nimport "b.proto";\nmessage M { D d = 1; }\n',
      'b.proto': 'syntax = "proto3";\nmessage D { string d = 1; }\n',
    },
  },
  {
    id: 'protobuf-ref-r6d',
    format: 'PROTOBUF',
    schema: 'syntax = "proto3";\nimport "mid/a.proto";\nmessage A { mid.M m = 1; }\n',
    references: {
      'mid/a.proto':
        'syntax = "proto3";\npackage mid;\nimport "deep/b.proto";\nmessage M { deep.D d = 1; }\n',
      'deep/b.proto': 'syntax = "proto3";\npackage deep;\nmessage D { string d = 1; }\n',
    },
    registryWrong:
      'the registry refuses a reference that imports another reference declaring a package, though protoc and Wire accept these files',
  },
  {
    id: 'json-ref-jr-whole-name',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"$ref":"a.json"}}}',
    references: {
      'a.json': '{"type":"string"}',
    },
  },
  {
    id: 'json-ref-jr-invalid-target',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"$ref":"a.json"}}}',
    references: {
      'a.json': '{"type":"strin"}',
    },
  },
  {
    id: 'json-ref-jr-fragment-name',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"$ref":"defs.json#/definitions/A"}}}',
    references: {
      'defs.json#/definitions/A': '{"definitions":{"A":{"type":"string"}}}',
    },
  },
  {
    id: 'json-ref-jr-document-name',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"$ref":"defs.json#/definitions/A"}}}',
    references: {
      'defs.json': '{"definitions":{"A":{"type":"string"}}}',
    },
  },
  {
    id: 'json-ref-jr-unused',
    format: 'JSON',
    schema: '{"type":"object"}',
    references: {
      'x.json': '{"type":"string"}',
    },
  },
  {
    id: 'json-ref-jr-missing-pointer',
    format: 'JSON',
    schema: '{"type":"object","properties":{"a":{"$ref":"defs.json#/definitions/B"}}}',
    references: {
      'defs.json#/definitions/B': '{"definitions":{"A":{"type":"string"}}}',
    },
  },
  {
    id: 'json-syntax-only-type-number',
    format: 'JSON',
    level: 'SYNTAX_ONLY',
    schema: '{"type": 5}',
  },
  {
    id: 'json-syntax-only-not-json',
    format: 'JSON',
    level: 'SYNTAX_ONLY',
    schema: 'not json',
  },
  {
    id: 'protobuf-syntax-only-dup-number',
    format: 'PROTOBUF',
    level: 'SYNTAX_ONLY',
    schema: 'syntax = "proto3";\nmessage A {\n  string a = 1;\n  int32 b = 1;\n}\n',
  },
  {
    id: 'protobuf-syntax-only-undefined-type',
    format: 'PROTOBUF',
    level: 'SYNTAX_ONLY',
    schema: 'syntax = "proto3";\nmessage A {\n  Missing m = 1;\n}\n',
  },
  {
    id: 'avro-syntax-only-dup-field',
    format: 'AVRO',
    level: 'SYNTAX_ONLY',
    schema: '{"type":"record","name":"A","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]}',
  },
]
