import { AvroSchemaError, parseAvro, writeAvro } from '@x/compatibility/avro'
import { dereferenceJson } from './json-dereference.js'
import { JsonNestingError } from './json-nesting.js'
import { RegistryProblem } from './problems.js'
import type { RegistryStorage, StoredContent } from './storage.js'

/** What a route handler gets: the request, already taken apart, and the registry's state. */
export interface RouteContext {
  readonly method: string
  /** Path parameters, percent-decoded (`{groupId}`, `{artifactId}`, ...). */
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  readonly body: string
  /** The request's `Content-Type`, lower-cased, without parameters; `''` when absent. */
  readonly contentType: string
  readonly storage: RegistryStorage
  readonly deletion: Readonly<DeletionSettings>
  /** When the registry was started, in Apicurio's date format (`SystemInfo.builtOn`). */
  readonly startedOn: string
}

/** Which deletions the registry allows; Apicurio allows none by default (a 405 `NotAllowedException`). */
export interface DeletionSettings {
  /** `DELETE /groups/{g}/artifacts/{a}` and `DELETE /groups/{g}/artifacts` (`apicurio.rest.deletion.artifact.enabled`). */
  artifact: boolean
  /** `DELETE .../versions/{version}` (`apicurio.rest.deletion.artifact-version.enabled`). */
  artifactVersion: boolean
  /** `DELETE /groups/{g}` (`apicurio.rest.deletion.group.enabled`). */
  group: boolean
}

/** How stored references are handled when content is read (`references=`). */
export type HandleReferences = 'PRESERVE' | 'DEREFERENCE' | 'REWRITE'

/**
 * The text of stored content as asked: with `DEREFERENCE`, an Avro schema with references is parsed together with
 * the referenced schemas and written back as Avro's `Schema.toString()` would, the referenced types defined where
 * first used; a JSON Schema has the `$ref`s naming its references inlined (see `dereferenceJson`). Apicurio answers
 * a Protobuf schema with a binary descriptor there, which InMemoryRegistry does not build: it answers a 500 saying
 * so. Everything else (`PRESERVE`, `REWRITE`, no references, other types) is the stored text.
 */
export function contentText(
  storage: RegistryStorage,
  content: StoredContent,
  artifactType: string,
  handling: HandleReferences | undefined,
): string {
  if (handling !== 'DEREFERENCE' || content.references.length === 0) return content.text
  if (artifactType === 'JSON') {
    try {
      return dereferenceJson(content.text, storage.referencedByName(content.references))
    } catch (error) {
      if (!(error instanceof JsonNestingError)) throw error
      throw new RegistryProblem(
        500,
        'UnsupportedOperationException',
        `InMemoryRegistry cannot dereference: ${error.message}`,
      )
    }
  }
  if (artifactType === 'PROTOBUF') {
    throw new RegistryProblem(
      500,
      'UnsupportedOperationException',
      'InMemoryRegistry does not dereference PROTOBUF content (Apicurio answers a binary descriptor): use references=PRESERVE',
    )
  }
  if (artifactType !== 'AVRO') return content.text
  try {
    return writeAvro(parseAvro(content.text, storage.resolveReferences(content.references)))
  } catch (error) {
    if (error instanceof AvroSchemaError) throw new RegistryProblem(500, error.exception, error.message)
    throw error
  }
}
