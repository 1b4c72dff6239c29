export { jsonSchemaChecker } from './json-schema-checker.js'
