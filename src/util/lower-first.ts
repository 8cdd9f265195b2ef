/** A library's message in the middle of ours: its first letter lower case, its closing full stop dropped. */
export function lowerFirst(message: string): string {
  const trimmed = message.replace(/\.$/, '');
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}
