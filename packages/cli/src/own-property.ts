/**
 * Sets `key` on `target` as an own data property, whatever the key: `target[key] = value` would take `__proto__` as
 * the object's prototype (or write through an inherited setter), so a name that is data never goes through it.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
}
