import { describeValue, invalidConfigError } from '@x/errors'
import type { ArtifactReference } from '@x/registry-client'
import {
  checkSchemaToRegister,
  normalizeSerializerOptions,
  type RegistryPort,
  SchemaSerializer,
  type SerializerOptions,
  type SerializerSetup,
} from '@x/serde-core'
import type { Framing } from './framing.js'
import { importsOf, isWellKnownImport } from './proto-schema.js'
import { ProtobufFormat } from './protobuf-format.js'
import { checkFraming, checkProtoText, checkReadOptions } from './protobuf-options.js'
import { WELL_KNOWN_IMPORTS, wellKnownText } from './well-known.js'

/** Options of {@link ProtobufSerializer}: the options every serializer has, and Protobuf's own. */
export interface ProtobufSerializerOptions<T = unknown> extends SerializerOptions<T> {
  /** The `.proto` text to register; required by `autoRegister`, ignored otherwise. */
  schema?: string
  /**
   * The files the schema imports, as Apicurio artifact references named by import path
   * (`{ name: 'common/address.proto', artifactId: 'common-address', version: '1' }`); `google/protobuf/*.proto` need
   * none. Only with `autoRegister`.
   * @default []
   */
  references?: ArtifactReference[]
  /**
   * The full name of the message written (`com.example.Order`).
   * @default the first message of the file, as Apicurio's Java serde does
   */
  messageType?: string
  /**
   * What precedes the message after the schema id: `'apicurio'`, a length-delimited `Ref` naming the message
   * (Apicurio's Java serde 3.x default); `'confluent'`, Confluent's message indexes (`[0]` as the single byte `00`).
   * @default 'apicurio'
   */
  framing?: Framing
}

/** Options of the `new ProtobufSerializer(client, artifactId, options)` form. */
export type ProtobufSerializerArtifactOptions<T = unknown> = Omit<
  ProtobufSerializerOptions<T>,
  'artifactId' | 'artifactResolver'
>

const OWNER = 'ProtobufSerializer'

function setupOf<T>(client: unknown, artifactIdOrOptions: unknown, options: unknown): SerializerSetup<T> {
  const { options: shared, raw } = normalizeSerializerOptions<T>(OWNER, artifactIdOrOptions, options, [
    'messageType',
    'framing',
  ])
  const messageType = raw.messageType
  if (messageType !== undefined && (typeof messageType !== 'string' || messageType === '')) {
    throw invalidConfigError(
      `${OWNER}: messageType must be a message's full name, got ${describeValue(messageType)}`,
    )
  }
  const framing = checkFraming(raw.framing, OWNER)
  const format = new ProtobufFormat(framing, checkReadOptions({}, OWNER), {
    messageType: messageType as string | undefined,
    framing,
  })
  let schemaToRegister: string | undefined
  if (shared.autoRegister) {
    schemaToRegister = checkProtoText(shared.schema, OWNER)
    checkSchemaToRegister(OWNER, format, schemaToRegister, shared.references)
  }
  const registerDependencies =
    schemaToRegister === undefined ? undefined : wellKnownRegistrar(schemaToRegister, shared.references ?? [])
  return { owner: OWNER, client, format, options: shared, schemaToRegister, registerDependencies }
}

/**
 * Registers the well-known files the schema imports (and those they import) that `references` does not name, each
 * as an artifact of its own named by its import path, as Apicurio's Java serde does: its deserializer needs them as
 * references to read the schema. Returns the references to them.
 */
function wellKnownRegistrar(
  schema: string,
  given: readonly ArtifactReference[],
): ((client: RegistryPort) => Promise<readonly ArtifactReference[]>) | undefined {
  const named = new Set(given.map((reference) => reference.name))
  const imports = importsOf(schema).filter((path) => isWellKnownImport(path) && !named.has(path))
  if (imports.length === 0) return undefined
  return async (client) => {
    const registered = new Map<string, ArtifactReference>()
    const register = async (path: string): Promise<ArtifactReference> => {
      const known = registered.get(path)
      if (known !== undefined) return known
      const text = wellKnownText(path)
      if (text === undefined) {
        throw invalidConfigError(`${OWNER}: '${path}' cannot be registered for you: give it as a reference`)
      }
      const references = await Promise.all((WELL_KNOWN_IMPORTS[path] ?? []).map(register))
      const version = await client.registerSchema(path, text, {
        ifExists: 'FIND_OR_CREATE_VERSION',
        artifactType: 'PROTOBUF',
        contentType: 'application/x-protobuf',
        ...(references.length === 0 ? {} : { references }),
      })
      const reference: ArtifactReference = { name: path, artifactId: path }
      if (version.groupId !== undefined && version.groupId !== 'default') reference.groupId = version.groupId
      if (version.version !== undefined) reference.version = version.version
      registered.set(path, reference)
      return reference
    }
    const out: ArtifactReference[] = []
    for (const path of imports) out.push(await register(path))
    return out
  }
}

/**
 * Writes Protobuf messages of a registry artifact (`artifactType: 'PROTOBUF'`, `.proto` text) in Apicurio's wire
 * formats: `0x00`, the 4-byte id, the `Ref` (or Confluent's message indexes), then the message; or the same without
 * magic byte and id, with the id in an `apicurio.{key|value}.{globalId|contentId}` header. Values are plain objects
 * (field names as in the `.proto`) or protobufjs message instances. Byte-compatible with Apicurio's Java
 * `ProtobufKafkaSerializer`.
 *
 * The methods are those of `SchemaSerializer` (`@x/serde-core`), the same as `AvroSerializer`'s.
 *
 * @typeParam T - The type of the values given to `serialize` (what `toDict` takes).
 */
export class ProtobufSerializer<T = unknown> extends SchemaSerializer<T> {
  /**
   * A serializer bound to one artifact.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option, or a schema to register that does not parse.
   */
  constructor(client: RegistryPort, artifactId: string, options?: ProtobufSerializerArtifactOptions<T>)
  /**
   * A serializer whose artifact is `options.artifactId`, or is derived per call by `options.artifactResolver`.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option.
   */
  constructor(client: RegistryPort, options: ProtobufSerializerOptions<T>)
  constructor(
    client: RegistryPort,
    artifactIdOrOptions: string | ProtobufSerializerOptions<T>,
    options?: ProtobufSerializerArtifactOptions<T>,
  ) {
    super(setupOf<T>(client, artifactIdOrOptions, options))
  }
}
