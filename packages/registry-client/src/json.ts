// `@x/registry-client/json`: the exact-JSON reader the client reads identifiers with, for the packages that read
// JSON holding 64-bit integers too (the JSON Schema serde; Avro's JSON encoding, as a tree of number texts). Not part
// of the client's root API.
export type { ExactJson, JsonTree } from './exact-json.js'
export {
  hasLongDigitRunIn,
  isJsonObject,
  JsonNumberText,
  JsonSyntaxError,
  MAX_JSON_NESTING,
  parseExactJson,
  parseJsonTree,
} from './exact-json.js'
