/** Where the CLI writes; tests pass their own streams. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly isTty: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}
