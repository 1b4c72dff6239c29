import type { AvroSchema, ProtoField } from './java-record.js'

/** The Avro record of the serde-level differential: every kind of Avro value, logical types included. */
export const ORDER_AVRO: AvroSchema = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'big', type: 'long' },
    { name: 'total', type: 'double' },
    { name: 'whole', type: 'double' },
    { name: 'ratio', type: 'float' },
    { name: 'qty', type: 'int' },
    { name: 'name', type: 'string' },
    { name: 'active', type: 'boolean' },
    { name: 'payload', type: 'bytes' },
    { name: 'digest', type: { type: 'fixed', name: 'Digest', size: 4 } },
    { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 } },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'micros', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['ACTIVE', 'PENDING', 'DELETED'] } },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'amount', type: ['null', 'double'], default: null },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'attrs', type: { type: 'map', values: 'string' } },
    { name: 'counts', type: { type: 'map', values: 'long' } },
    {
      name: 'address',
      type: {
        type: 'record',
        name: 'Address',
        fields: [
          { name: 'city', type: 'string' },
          {
            name: 'geo',
            type: {
              type: 'record',
              name: 'Geo',
              fields: [
                { name: 'lat', type: 'double' },
                { name: 'lon', type: 'double' },
              ],
            },
          },
        ],
      },
    },
    {
      name: 'lines',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'Line',
          fields: [
            { name: 'sku', type: 'string' },
            { name: 'qty', type: 'int' },
            { name: 'price', type: 'double' },
          ],
        },
      },
    },
  ],
}

/** The JSON Schema of the differential. */
export const ORDER_JSON = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    orderId: { type: 'string' },
    amount: { type: 'number' },
    whole: { type: 'number' },
    count: { type: 'integer' },
    big: { type: 'integer' },
    email: { type: 'string' },
    when: { type: 'string', format: 'date-time' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, price: { type: 'number' }, qty: { type: 'integer' } },
        required: ['sku', 'price', 'qty'],
      },
    },
    meta: { type: 'object', additionalProperties: { type: 'string' } },
    optional: { type: ['string', 'null'] },
    flags: { type: 'array', items: { type: 'boolean' } },
    kind: { enum: ['A', 'B', 'C'] },
  },
  required: ['orderId', 'amount', 'count', 'big'],
}

/** The Protobuf schema of the differential: scalars, 64-bit integers, maps, nested messages, well-known types. */
export const USER_PROTO = `syntax = "proto3";
package shop;

import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/struct.proto";

enum Color {
  COLOR_UNSPECIFIED = 0;
  RED = 1;
  BLUE = 2;
}

message User {
  int64 user_id = 1;
  double score = 2;
  int32 level = 3;
  string nickname = 4;
  repeated string roles = 5;
  map<string, string> labels = 6;
  Profile profile = 7;
  google.protobuf.Timestamp updated_at = 8;
  google.protobuf.Duration ttl = 9;
  google.protobuf.Int64Value wrapped = 10;
  Color color = 11;
  bytes blob = 12;
  uint64 counter = 13;
  bool active = 14;
  google.protobuf.Struct extra = 15;
  google.protobuf.DoubleValue ratio = 16;
}

message Profile {
  int32 age = 1;
  string country = 2;
  repeated string emails = 3;
}
`

const PROFILE: ProtoField[] = [
  { name: 'age', json: 'age', type: 'int32' },
  { name: 'country', json: 'country', type: 'string' },
  { name: 'emails', json: 'emails', type: 'string', repeated: true },
]

/** The fields of `shop.User`, for {@link protobufJavaRecord}. */
export const USER_FIELDS: ProtoField[] = [
  { name: 'user_id', json: 'userId', type: 'int64' },
  { name: 'score', json: 'score', type: 'double' },
  { name: 'level', json: 'level', type: 'int32' },
  { name: 'nickname', json: 'nickname', type: 'string' },
  { name: 'roles', json: 'roles', type: 'string', repeated: true },
  { name: 'labels', json: 'labels', type: 'string', map: true },
  { name: 'profile', json: 'profile', type: PROFILE, presence: true },
  { name: 'updated_at', json: 'updatedAt', type: 'Timestamp', presence: true },
  { name: 'ttl', json: 'ttl', type: 'Duration', presence: true },
  { name: 'wrapped', json: 'wrapped', type: 'Int64Value', presence: true },
  { name: 'color', json: 'color', type: 'enum', zero: 'COLOR_UNSPECIFIED' },
  { name: 'blob', json: 'blob', type: 'bytes' },
  { name: 'counter', json: 'counter', type: 'uint64' },
  { name: 'active', json: 'active', type: 'bool' },
  { name: 'extra', json: 'extra', type: 'Struct', presence: true },
  { name: 'ratio', json: 'ratio', type: 'DoubleValue', presence: true },
]
