export { protobufChecker } from './protobuf-checker.js'
