/**
 * The names every object inherits (`constructor`, `toString`, `valueOf`, ...). A validator that tests a property as
 * `data.name !== undefined` finds these on `{}`: it would check the prototype's function against the property's
 * schema, and count a missing required one as present. ajv's `ownProperties` tests own properties only; it costs a
 * call per property, so a project pays it only when one of its schemas names such a property.
 */
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The keys of `value` when it is a plain object, else none. */
const keysOf = (value: unknown): string[] =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];

/** Whether `schema` names an inherited member as a property, a required key or a dependency, at any depth. */
export function namesInheritedMember(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(namesInheritedMember);
  if (schema === null || typeof schema !== 'object') return false;
  const node = schema as Readonly<Record<string, unknown>>;
  const { properties, required, dependentRequired, dependentSchemas } = node;
  // dependentRequired: {a: [constructor]} tests the second name as required does.
  const listed = [required, ...keysOf(dependentRequired).map((k) => (dependentRequired as Record<string, unknown>)[k])];
  const names = [
    ...keysOf(properties),
    ...keysOf(dependentRequired),
    ...keysOf(dependentSchemas),
    ...listed.flatMap((list) => (Array.isArray(list) ? list : [])),
  ];
  if (names.some((name) => typeof name === 'string' && inherited.has(name))) return true;
  return Object.values(node).some(namesInheritedMember);
}
