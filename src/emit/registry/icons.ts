import type { IconSpec, ResourceSpec } from '../../../templates/runtime/spec.gen.js';
import type { IconModel, ResourceAnnotationsModel } from '../../model/types.js';

/** Icons as the registry carries them: copies in declared order, or null when there are none (nothing is sent). */
export function iconsData(icons: readonly IconModel[]): IconSpec[] | null {
  if (icons.length === 0) return null;
  return icons.map(({ sizes, ...icon }) => ({ ...icon, ...(sizes === undefined ? {} : { sizes: [...sizes] }) }));
}

/** A resource's annotations as the registry carries them, or null. */
export function annotationsData(annotations: ResourceAnnotationsModel | null): ResourceSpec['annotations'] {
  if (annotations === null) return null;
  const { audience, ...rest } = annotations;
  return { ...(audience === undefined ? {} : { audience: [...audience] }), ...rest };
}
