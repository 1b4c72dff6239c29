import type { CompatibilityIssue, FormatChecker } from '../format-checker.js'
import { pointerToPath } from '../pointer-path.js'
import { type Incompatibility, readerWriterIncompatibilities } from './reader-writer.js'
import { AvroSchemaError, type AvroType, parseAvro } from './schema.js'

/**
 * Avro, as Apicurio's `AvroCompatibilityChecker` decides it: Apache Avro's
 * `SchemaCompatibility.checkReaderWriterCompatibility` with the proposed schema reading data written with the
 * existing one, each parsed with the referenced schemas known first.
 */
export const avroChecker: FormatChecker = {
  validate(schema, references) {
    try {
      parseAvro(schema, Object.values(references))
      return []
    } catch (error) {
      if (!(error instanceof AvroSchemaError)) throw error
      return [{ path: '', message: `The schema is not valid Avro: ${error.message}.` }]
    }
  },
  backwardIssues(existing, proposed, references) {
    return readerWriterIncompatibilities(read(proposed, references), read(existing, references)).map(toIssue)
  },
}

/**
 * Parsed schemas by text, per references object: one `checkCompatibility` call passes the same object to every
 * comparison, so each version is parsed once however many times it is compared.
 */
const parsed = new WeakMap<Record<string, string>, Map<string, AvroType>>()

/** The parsed schema; a schema Avro refuses is an `Error` named after Avro's exception, as Apicurio reports it. */
function read(text: string, references: Record<string, string>): AvroType {
  let known = parsed.get(references)
  if (known === undefined) {
    known = new Map()
    parsed.set(references, known)
  }
  const cached = known.get(text)
  if (cached !== undefined) return cached
  try {
    const schema = parseAvro(text, Object.values(references))
    known.set(text, schema)
    return schema
  } catch (error) {
    if (!(error instanceof AvroSchemaError)) throw error
    throw new Error(`${error.exception}: ${error.message}`, { cause: error })
  }
}

function toIssue(found: Incompatibility): CompatibilityIssue {
  return {
    path: pointerToPath(found.context),
    message: sentence(found),
    cause: { description: found.description, context: found.context },
  }
}

function sentence(found: Incompatibility): string {
  const d = found.description
  switch (found.kind) {
    case 'TYPE_MISMATCH': {
      const [, reader, writer] = /^reader type: (\S+) not compatible with writer type: (\S+)$/.exec(d) ?? []
      return `The reader's ${lower(reader)} cannot read the ${lower(writer)} the writer wrote.`
    }
    case 'MISSING_UNION_BRANCH':
      return `No branch of the reader's union can read the ${lower(d.replace(/^.*: /, ''))} the writer wrote.`
    case 'READER_FIELD_MISSING_DEFAULT_VALUE':
      return `The reader's field ${JSON.stringify(d)} has no default, and the writer has no field of that name or of one of its aliases.`
    case 'NAME_MISMATCH':
      return `The reader's name does not match the writer's ${d.replace(/^expected: /, '')}, nor do its aliases.`
    case 'MISSING_ENUM_SYMBOLS':
      return `The writer's enum symbols ${d} are not among the reader's, and the reader's enum has no default symbol.`
    case 'FIXED_SIZE_MISMATCH': {
      const [, writer, reader] = /^expected: (\S+), found: (\S+)$/.exec(d) ?? []
      return `The reader's fixed holds ${reader} bytes where the writer's holds ${writer}.`
    }
  }
}

function lower(text: string | undefined): string {
  return (text ?? '').toLowerCase()
}
