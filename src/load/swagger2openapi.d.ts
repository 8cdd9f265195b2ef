/** The part of swagger2openapi's API the loader uses; the package ships no types. */
declare module 'swagger2openapi' {
  export function convertObj(
    swagger: Record<string, unknown>,
    options: { patch: boolean; warnOnly: boolean; resolve: boolean },
  ): Promise<{ openapi: Record<string, unknown> }>;
}
