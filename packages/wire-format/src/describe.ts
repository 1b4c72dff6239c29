/** @internal Cuts a long text (e.g. a huge digit string) to 40 characters for a message. */
export function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
