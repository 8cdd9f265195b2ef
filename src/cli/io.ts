/** Where the CLI writes; tests pass their own streams. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly isTty: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** The process's own streams, environment and folder. */
export const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTty: process.stdout.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
};
