import type { ManifestIcon, ManifestResourceAnnotations } from '../model/manifest.gen.js';
import type { IconModel, ResourceAnnotationsModel } from '../model/metadata.js';

/** Icons in declared order (a host may prefer the first that fits), each with MCP's key order. */
export function normalizeIcons(icons: readonly ManifestIcon[] | undefined): IconModel[] {
  return (icons ?? []).map((icon) => ({
    src: icon.src,
    ...(icon.mimeType === undefined ? {} : { mimeType: icon.mimeType }),
    ...(icon.sizes === undefined ? {} : { sizes: [...icon.sizes] }),
    ...(icon.theme === undefined ? {} : { theme: icon.theme }),
  }));
}

/** A resource's annotations with MCP's key order, or null when it has none; the audience keeps its order. */
export function normalizeResourceAnnotations(
  annotations: ManifestResourceAnnotations | undefined,
): ResourceAnnotationsModel | null {
  if (annotations === undefined) return null;
  return {
    ...(annotations.audience === undefined ? {} : { audience: [...annotations.audience] }),
    ...(annotations.priority === undefined ? {} : { priority: annotations.priority }),
    ...(annotations.lastModified === undefined ? {} : { lastModified: annotations.lastModified }),
  };
}
