import { loadValidators, type ValidatorSource } from '#domain/kernel/validation.ts';
import { observeBotRun } from './observability.ts';
import { wireRuntime } from './wiring.ts';

let botValidators: ValidatorSource | undefined;

/**
 * Registers the body validators a built bot checks with (lib/build.ts ships those beside it; its runs load them);
 * without them (the sources), a run loads all.
 */
export function registerBotValidators(source: ValidatorSource): void {
  botValidators = source;
}

/**
 * One bot run, as every bot (and the room's timer) starts it: the runtime wired, the run observed (observeBotRun: its
 * correlation id, log line and metrics), and the validators loaded inside it, since bots check what they write as the
 * API does.
 */
export function botRun<T extends { due: number; changed: number; failed?: number; requests?: number }>(
  bot: string,
  run: () => Promise<T>,
): Promise<T> {
  wireRuntime();
  return observeBotRun(bot, async () => {
    await loadValidators(botValidators);
    return run();
  });
}
