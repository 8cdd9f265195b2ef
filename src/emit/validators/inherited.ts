/**
 * The names every object inherits (`constructor`, `toString`, `valueOf`, ...). A validator that tests a property as
 * `data.name !== undefined` finds these on `{}`: it would check the prototype's function against the property's
 * schema, and count a missing required one as present. ajv's `ownProperties` tests own properties only; it costs a
 * call per property, so a project pays it only when one of its schemas names such a property.
 */
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether `schema` names an inherited member as a property or a required key, at any depth. */
export function namesInheritedMember(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(namesInheritedMember);
  if (schema === null || typeof schema !== 'object') return false;
  const node = schema as Readonly<Record<string, unknown>>;
  const { properties, required } = node;
  if (properties !== null && typeof properties === 'object' && Object.keys(properties).some((k) => inherited.has(k)))
    return true;
  if (Array.isArray(required) && required.some((k) => typeof k === 'string' && inherited.has(k))) return true;
  return Object.values(node).some(namesInheritedMember);
}
