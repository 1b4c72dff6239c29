export { avroChecker } from './avro-checker.js'
