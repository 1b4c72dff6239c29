/** A TypeScript identifier for a schema name (`com.example.User` → `User`); clashes get their namespace. */
export function identifierOf(fullName: string, taken: ReadonlySet<string>): string {
  const simple = safeName(fullName.slice(fullName.lastIndexOf('.') + 1))
  if (!taken.has(simple)) return simple
  return safeName(fullName.replace(/\./g, '_'))
}

/** `name` made a TypeScript identifier: other characters become `_`, a leading digit gets one. */
export function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, '_')
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned
}

/** A property name as written in an interface: bare when it is an identifier, quoted otherwise. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name)
}

/** A doc comment, or nothing. */
export function docComment(doc: unknown, indent: string): string {
  if (typeof doc !== 'string' || doc.trim() === '') return ''
  return `${indent}/** ${doc.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n`
}
