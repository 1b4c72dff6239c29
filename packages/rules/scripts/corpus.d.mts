/** `value` as a double of a record: written with a fraction (`5.0`), which the registry reads as a double. */
export function double(value: number): unknown
/** JSON text of a value whose integers may be `bigint`s, and whose doubles made by `double` keep a fraction. */
export function exactJson(value: unknown): string
/** Every case, in a stable order, without answers. */
export function generateCases(): unknown[]
/** Sets up the case's artifact on the registry and returns the registry's answer as JSON text. */
export function askRegistry(base: string, group: string, testCase: object): Promise<string>
