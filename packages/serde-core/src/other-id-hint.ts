import { SchemaNotFoundError } from '@x/errors'
import type { IdType, SchemaId } from '@x/wire-format'
import { fetchById, type RegistryPort } from './registry-port.js'

/** Who writes each id type by default, for the hint: Apicurio's Java serdes 3.x write contentIds, 2.x globalIds. */
const WRITERS: Readonly<Record<IdType, string>> = {
  contentId: 'as Java 3.x does by default',
  globalId: "as Java 2.x and this library's serializers do by default",
}

/**
 * For a reader that met a frame's id the registry does not know as `idType` (the reader's `useId`, a guess the frame
 * cannot confirm): asks the registry once whether the id exists as the other id type, and if so returns a
 * `SchemaNotFoundError` saying so and naming the `useId` that reads the frame (`Schema not found: no globalId 17, but
 * a contentId 17 exists: the producer writes contentIds, as Java 3.x does by default: set useId 'contentId'`), with
 * the error as `cause`. Any other error, or an id the other type does not know either (or a failed request), is
 * returned as it was. Call it on that error path only: it costs one request. Not for an id read from a header, which
 * names its type.
 *
 * @param client - The registry client the lookup failed on.
 * @param error - What the lookup of `idType` `id` threw.
 * @returns The error to throw.
 */
export async function withOtherIdHint(
  client: Pick<RegistryPort, 'getSchemaByGlobalId' | 'getSchemaByContentId'>,
  error: unknown,
  idType: IdType,
  id: SchemaId,
): Promise<unknown> {
  if (!(error instanceof SchemaNotFoundError) || error.idType !== idType) return error
  const other: IdType = idType === 'globalId' ? 'contentId' : 'globalId'
  try {
    await fetchById(client, other, id)
  } catch {
    return error
  }
  return new SchemaNotFoundError(
    `Schema not found: no ${idType} ${String(id)}, but a ${other} ${String(id)} exists: the producer writes ${other}s, ${WRITERS[other]}: set useId '${other}'`,
    {
      cause: error,
      idType,
      idValue: error.idValue,
      ...(error.url === undefined ? {} : { url: error.url }),
      ...(error.status === undefined ? {} : { status: error.status }),
    },
  )
}
