/** Sets an own property, also one named `__proto__` (which plain assignment would take as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty is several times slower than assignment, which gives the same property for every other key.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
