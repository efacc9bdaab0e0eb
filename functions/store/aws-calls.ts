import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from '#platform/config.ts';

/**
 * Where the tests see every call to AWS the code makes, and which Lambda made it (test/support/aws/: each is then
 * checked against that function's IAM role in the synthesized templates). The SDK clients carry `observeClient`'s
 * middleware; the secrets read through the Lambda extension (no SDK) call `observeCall`. Nothing is observed unless
 * the local runtime installs an observer: in Lambda none is ever installed, and the cost is one lookup per call.
 */
export interface AwsCall {
  /** The SDK's service (`DynamoDB`, `S3`, `SFN`, `ApiGatewayManagementApi`) or `SecretsManager`. */
  service: string;
  /** The SDK command's name (`PutItemCommand`, `PutCommand`...). */
  command: string;
  /** The command's input (keys in the document client's form or marshalled, as the client holds it). */
  input: Record<string, unknown>;
  /** The client's endpoint when configured (the room's management API). */
  endpoint?: string;
}
export type CallObserver = (call: AwsCall, caller: string | undefined) => void;

// On globalThis, like the other local-runtime state: every copy of this module (a bundle per handler) shares them.
const OBSERVER = Symbol.for('agora.awsCallObserver');
const CALLER = Symbol.for('agora.awsCaller');
const globals = globalThis as Record<symbol, unknown>;
globals[CALLER] ??= new AsyncLocalStorage<string>();
const caller = globals[CALLER] as AsyncLocalStorage<string>;

/** The local runtime's observer (tests); refused inside Lambda. Answers the one it replaces. */
export function installCallObserver(observer: CallObserver | undefined): CallObserver | undefined {
  if (config().inLambda) throw new Error('the AWS call observer never runs in AWS Lambda');
  const previous = globals[OBSERVER] as CallObserver | undefined;
  globals[OBSERVER] = observer;
  return previous;
}

/** Runs `run` as the Lambda `name` (the local stand-ins call it where they invoke a handler, as AWS would). */
export const asCaller = <T>(name: string, run: () => T): T => caller.run(name, run);

export function observeCall(call: AwsCall): void {
  const observer = globals[OBSERVER] as CallObserver | undefined;
  if (observer) observer(call, caller.getStore());
}

interface Observable {
  middlewareStack: { add(middleware: any, options: { step: 'initialize'; name: string; priority?: 'high' }): void };
}

/** Adds the observer's middleware to an SDK client: first of all, so a presigned request is seen too. */
export function observeClient<C extends Observable>(client: C, service: string, endpoint?: string): C {
  client.middlewareStack.add(
    (next: (args: any) => Promise<any>, context: { commandName?: string }) => (args: { input: any }) => {
      if (globals[OBSERVER])
        observeCall({ service, command: context.commandName ?? '', input: args.input, ...(endpoint && { endpoint }) });
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'agoraCallObserver' },
  );
  return client;
}
