/**
 * `--help` (or `-h`) anywhere among a CLI's arguments: what the command does and its usage, on stdout, exit 0. Every
 * CLI of package.json's scripts calls this before it reads its arguments.
 */
export function answerHelp(about: string, usage: string, argv = process.argv.slice(2)): void {
  if (!argv.some((a) => a === '--help' || a === '-h')) return;
  console.log(`${about}\n${usage}`);
  process.exit(0);
}
