export {
  type DifferentialCase,
  type DifferentialFormat,
  type DifferentialRuleset,
  differentialCases,
  differentialRulesets,
  differentialSchema,
  javaRecordOf,
} from './cases.js'
export {
  DIFFERENTIAL_EXCEPTIONS,
  type DifferentialException,
  RULES_TEST_EXCEPTIONS,
  type RulesTestException,
} from './exceptions.js'
export {
  avroJavaRecord,
  jsonJavaRecord,
  type ProtoField,
  plainText,
  protobufJavaRecord,
} from './java-record.js'
export {
  type MigrationCase,
  type MigrationVersion,
  migrationCases,
  migrationJavaRecord,
  migrationVersions,
} from './migrations.js'
export {
  describeOutcome,
  exactParse,
  nodeOutcome,
  type Outcome,
  outcomeOf,
  registryOutcome,
  sameOutcome,
} from './outcome.js'
