import type { ResourceHandler } from '../../generated/index.gen.js';

/** The demo's settings, as the lesson's `config://app` resource shows them. */
export const appConfigText = ['name=demo-server', 'version=0.2.0', 'protocol=2026-07-28', 'transport=stdio', 'auth=none', ''].join('\n');

/**
 * Handler of resource "app_config".
 *
 * App configuration: plain text, one key=value pair per line (the MIME type comes from the manifest).
 */
export const appConfigHandler: ResourceHandler<'app_config'> = async () => appConfigText;
