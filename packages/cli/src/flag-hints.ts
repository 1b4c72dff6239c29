/**
 * A library error's message in the CLI's words: where it advises an option of the deserializers (`avro.encoding`,
 * `useId`), the flag of the commands that read messages that sets it.
 */
export function inCliWords(message: string): string {
  return message
    .replace(/set avro\.encoding '(\w+)' or '(\w+)'/g, 'pass --encoding $1 or $2')
    .replace(/set useId '(\w+)'/g, 'pass --use-id $1')
}
