import { formatReport, hasFailures, type Paint } from '../diagnostics/index.js';
import { runPipeline } from '../pipeline.js';
import type { CliIo } from './io.js';

/** Options of `mcp-gen validate`, as given on the command line. */
export interface ValidateOptions {
  readonly manifest: string;
  readonly format: string;
  readonly strict: boolean;
}

/** Validates one manifest and prints the result; returns the exit code. */
export async function runValidate(options: ValidateOptions, io: CliIo, paint: Paint): Promise<number> {
  if (options.format !== 'text' && options.format !== 'json') {
    io.stderr(`mcp-gen: error: --format must be "text" or "json", got "${options.format}"\n`);
    return 1;
  }
  const result = await runPipeline({ manifest: options.manifest, cwd: io.cwd, command: 'validate' }, 'normalize');
  const failed = hasFailures(result.diagnostics, options.strict);
  if (options.format === 'json') {
    io.stdout(`${JSON.stringify({ file: result.file, ok: !failed, diagnostics: result.diagnostics }, null, 2)}\n`);
    return failed ? 1 : 0;
  }
  if (result.diagnostics.length > 0) {
    io.stderr(formatReport(result.diagnostics, paint));
  }
  const warnings = result.diagnostics.length;
  if (!failed)
    io.stdout(`${result.file}: valid${warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}\n`);
  return failed ? 1 : 0;
}
