import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { synthesizeAsCli } from '../support/synth.ts';

/**
 * In AWS the room page and its WebSocket are on two hosts: the page (and login, session) on the HTTP API, the socket
 * on the room stack's WebSocket stage. Links (AGORA_AUCTION_SITE) must lead to the HTTP API, the page must be given
 * the socket (AGORA_ROOM_SOCKET), and the stacks must deploy in an order without a cycle.
 */
const build = (context: Record<string, unknown> = {}) => synthesizeAsCli(context);

type Built = ReturnType<typeof build>;
const stacksOf = (b: Built): Stack[] => [b.data, b.api, b.room, ...b.routeStacks, b.bots];

/** Each stack's template, made once (each `Template.fromStack` synthesizes the app again). */
const templates = new Map<Stack, any>();
const templateOf = (stack: Stack) => {
  if (!templates.has(stack)) templates.set(stack, Template.fromStack(stack).toJSON());
  return templates.get(stack);
};

/** Every Lambda of the app: its stack, logical id, handler-named id and environment. */
function functionsOf(b: Built) {
  return stacksOf(b).flatMap((stack) =>
    Object.entries(templateOf(stack).Resources as Record<string, any>)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .map(([id, f]) => ({ stack, id, env: (f.Properties.Environment?.Variables ?? {}) as Record<string, unknown> })),
  );
}

/**
 * What a value resolves to across the app: a `Fn::ImportValue` is followed to the exporting stack's output; a
 * `Fn::GetAtt` names `<stack>/<resource type>/<protocol>.<attribute>`; a `Fn::Join` is joined; a string is itself.
 */
function resolve(b: Built, stack: Stack, value: any): string {
  if (typeof value === 'string') return value;
  if (value['Fn::Join'])
    return value['Fn::Join'][1].map((part: any) => resolve(b, stack, part)).join(value['Fn::Join'][0]);
  if (value['Fn::ImportValue']) {
    for (const exporter of stacksOf(b)) {
      const outputs = (templateOf(exporter).Outputs ?? {}) as Record<string, any>;
      const output = Object.values(outputs).find((o) => o.Export?.Name === value['Fn::ImportValue']);
      if (output) return resolve(b, exporter, output.Value);
    }
    throw new Error(`no stack exports ${value['Fn::ImportValue']}`);
  }
  const resources = templateOf(stack).Resources as Record<string, any>;
  const named = (id: string) => {
    const r = resources[id];
    return `${stack.stackName}/${r.Type}/${r.Properties.ProtocolType ?? ''}`;
  };
  if (value['Fn::GetAtt']) return `${named(value['Fn::GetAtt'][0])}.${value['Fn::GetAtt'][1]}`;
  if (value.Ref) return value.Ref.startsWith('AWS::') ? `<${value.Ref}>` : `${named(value.Ref)}.Ref`;
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}

const HTTP_API = 'Agora-dev-Api/AWS::ApiGatewayV2::Api/HTTP.ApiEndpoint';
// The CLI's region on a machine with none configured (test/support/synth.ts CLI_ENVIRONMENT).
const ROOM_SOCKET =
  'wss://Agora-dev-Room/AWS::ApiGatewayV2::Api/WEBSOCKET.Ref.execute-api.us-east-1.<AWS::URLSuffix>/live';
const PAGE_ROUTES = routes.filter((r) => r.handler === 'room-page/page');

let app: Built;
beforeAll(() => {
  app = build();
});

describe('the room page and its WebSocket on two hosts', () => {
  it('gives links the HTTP API as their site by default: the API, route, room and bot functions alike', () => {
    const functions = functionsOf(app);
    expect(new Set(functions.map((f) => f.stack.stackName))).toEqual(
      new Set(
        stacksOf(app)
          .filter((s) => s !== app.data)
          .map((s) => s.stackName),
      ),
    );
    for (const f of functions)
      expect(resolve(app, f.stack, f.env.AGORA_AUCTION_SITE), `${f.stack.stackName}/${f.id}`).toBe(HTTP_API);
  });

  it('gives the room page functions, and only those, the room stage URL', () => {
    expect(PAGE_ROUTES.map((r) => r.path).sort()).toEqual([
      '/insider-auctions/{auctionId}',
      '/texas-auctions/{auctionId}',
    ]);
    const withSocket = functionsOf(app).filter((f) => f.env.AGORA_ROOM_SOCKET !== undefined);
    expect(withSocket.map((f) => f.id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'RoomPagePageDgfInsider',
      'RoomPagePageLandlease',
    ]);
    for (const f of withSocket) expect(resolve(app, f.stack, f.env.AGORA_ROOM_SOCKET)).toBe(ROOM_SOCKET);
  });

  it("gives the room page functions, and only those, the observers' broadcast: its real-time URL, host and key", () => {
    const withEvents = functionsOf(app).filter((f) => f.env.AGORA_ROOM_EVENTS !== undefined);
    expect(withEvents.map((f) => f.id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'RoomPagePageDgfInsider',
      'RoomPagePageLandlease',
    ]);
    for (const f of withEvents)
      expect(resolve(app, f.stack, f.env.AGORA_ROOM_EVENTS)).toBe(
        'wss://Agora-dev-Room/AWS::AppSync::Api/.Dns.Realtime/event/realtime Agora-dev-Room/AWS::AppSync::Api/.Dns.Http Agora-dev-Room/AWS::AppSync::ApiKey/.ApiKey',
      );
  });

  it('takes the site from publicBaseUrl when set, and from auctionSite above all', () => {
    const sites = (b: Built) => new Set(functionsOf(b).map((f) => resolve(b, f.stack, f.env.AGORA_AUCTION_SITE)));
    expect(sites(build({ publicBaseUrl: 'https://api.example.org' }))).toEqual(new Set(['https://api.example.org']));
    const overridden = build({ publicBaseUrl: 'https://api.example.org', auctionSite: 'https://auction.example.org' });
    expect(sites(overridden)).toEqual(new Set(['https://auction.example.org']));
    // The page keeps its socket whatever the site.
    expect(
      functionsOf(overridden)
        .filter((f) => f.env.AGORA_ROOM_SOCKET !== undefined)
        .map((f) => resolve(overridden, f.stack, f.env.AGORA_ROOM_SOCKET)),
    ).toEqual([ROOM_SOCKET, ROOM_SOCKET]);
  });

  it('synthesizes without a cycle, in the order Data, Api, Room, then the route stacks and bots', () => {
    const assembly = app.app.synth();
    const dependsOn = (name: string) =>
      assembly
        .getStackByName(name)
        .dependencies.map((d) => d.id)
        .filter((id) => !id.endsWith('.assets'));
    expect(dependsOn('Agora-dev-Api')).toEqual(['Agora-dev-Data']);
    expect(dependsOn('Agora-dev-Room').sort()).toEqual(['Agora-dev-Api', 'Agora-dev-Data']);
    // The page's route stack needs the room; the API (its authorizer) never does.
    const pageStacks = new Set(functionsOf(app).flatMap((f) => (f.env.AGORA_ROOM_SOCKET ? [f.stack.stackName] : [])));
    expect([...pageStacks]).toEqual(['Agora-dev-Api-Service']);
    expect(dependsOn('Agora-dev-Api-Service')).toContain('Agora-dev-Room');
    for (const stack of [app.data, app.api]) expect(dependsOn(stack.stackName)).not.toContain('Agora-dev-Room');
  });
});
