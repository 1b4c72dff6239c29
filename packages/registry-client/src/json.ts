// `@x/registry-client/json`: the exact-JSON reader the client reads identifiers with, for the packages that read
// JSON holding 64-bit integers too (the JSON Schema serde). Not part of the client's root API.
export type { ExactJson } from './exact-json.js'
export {
  hasLongDigitRunIn,
  isJsonObject,
  JsonSyntaxError,
  MAX_JSON_NESTING,
  parseExactJson,
} from './exact-json.js'
