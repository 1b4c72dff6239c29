/**
 * A library error's message in the CLI's words: where it advises an option of the deserializers (`avro.encoding`,
 * `useId`), the flag of the commands that read messages that sets it; where a TLS failure names the client's `tls`
 * settings, the connection flags.
 */
export function inCliWords(message: string): string {
  return message
    .replace(/set avro\.encoding '(\w+)' or '(\w+)'/g, 'pass --encoding $1 or $2')
    .replace(/set useId '(\w+)'/g, 'pass --use-id $1')
    .replace(/as tls\.ca\b/g, 'with --ca')
    .replace(/as tls\.cert and tls\.key\b/g, 'with --cert and --key')
}
