import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { synthesizeAsCli } from '../support/synth.ts';

/**
 * The operator's own domains (`-c apiDomain=… -c roomDomain=… -c certificateArn=…`, lib/parameters.ts): API Gateway
 * custom domain names mapped to the HTTP API and to the room's stage, every link (AGORA_AUCTION_SITE: `auctionUrl`,
 * participation links) and the room page's socket (AGORA_ROOM_SOCKET) on them, alias records given a hosted zone.
 */
const CERTIFICATE = 'arn:aws:acm:eu-central-1:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const ROOM_CERTIFICATE = 'arn:aws:acm:eu-central-1:123456789012:certificate/ffffffff-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const DOMAINS = {
  apiDomain: 'api.agora.example.org',
  roomDomain: 'room.agora.example.org',
  certificateArn: CERTIFICATE,
};
const ENV = { account: '123456789012', region: 'eu-central-1' };

type Built = ReturnType<typeof synthesizeAsCli>;
const resources = (stack: Stack, type: string) =>
  Object.entries(Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: any }>)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => ({ id, ...r.Properties }));
const functionsEnv = (b: Built) =>
  [b.api, b.room, b.bots, ...b.routeStacks].flatMap((s) =>
    resources(s, 'AWS::Lambda::Function').map((f) => (f.Environment?.Variables ?? {}) as Record<string, unknown>),
  );

describe('custom domains', () => {
  it('maps apiDomain to the HTTP API and roomDomain to the room stage, with the certificate, and puts links on them', () => {
    const b = synthesizeAsCli({ ...DOMAINS, ...ENV });
    const [apiName] = resources(b.api, 'AWS::ApiGatewayV2::DomainName');
    expect(apiName).toMatchObject({
      DomainName: 'api.agora.example.org',
      DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
    });
    const [apiMapping] = resources(b.api, 'AWS::ApiGatewayV2::ApiMapping');
    const httpApi = resources(b.api, 'AWS::ApiGatewayV2::Api')[0]!.id;
    expect(apiMapping).toMatchObject({ ApiId: { Ref: httpApi }, DomainName: { Ref: apiName!.id }, Stage: '$default' });
    expect(apiMapping!.ApiMappingKey).toBeUndefined();

    const [roomName] = resources(b.room, 'AWS::ApiGatewayV2::DomainName');
    expect(roomName).toMatchObject({
      DomainName: 'room.agora.example.org',
      DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL' }],
    });
    const [roomMapping] = resources(b.room, 'AWS::ApiGatewayV2::ApiMapping');
    const socketApi = resources(b.room, 'AWS::ApiGatewayV2::Api')[0]!.id;
    const [stage] = resources(b.room, 'AWS::ApiGatewayV2::Stage');
    expect(roomMapping).toMatchObject({ ApiId: { Ref: socketApi }, Stage: stage!.StageName });
    expect(roomMapping!.ApiMappingKey).toBeUndefined();

    const envs = functionsEnv(b);
    expect(new Set(envs.map((e) => e.AGORA_AUCTION_SITE))).toEqual(new Set(['https://api.agora.example.org']));
    expect(new Set(envs.map((e) => e.AGORA_PUBLIC_URL).filter(Boolean))).toEqual(
      new Set(['https://api.agora.example.org']),
    );
    const sockets = envs.map((e) => e.AGORA_ROOM_SOCKET).filter(Boolean);
    expect(sockets).toEqual(['wss://room.agora.example.org', 'wss://room.agora.example.org']);
    // The DNS targets, and the URLs on the domains, as outputs; no record without a hosted zone.
    const outputs = { ...Template.fromStack(b.api).toJSON().Outputs, ...Template.fromStack(b.room).toJSON().Outputs };
    expect(outputs.ApiUrl.Value).toBe('https://api.agora.example.org');
    expect(outputs.RoomUrl.Value).toBe('wss://room.agora.example.org');
    expect(outputs.ApiDomainTarget.Value).toEqual({ 'Fn::GetAtt': [apiName!.id, 'RegionalDomainName'] });
    expect(outputs.RoomDomainTarget.Value).toEqual({ 'Fn::GetAtt': [roomName!.id, 'RegionalDomainName'] });
    for (const s of [b.api, b.room]) expect(resources(s, 'AWS::Route53::RecordSet')).toEqual([]);
  });

  it('takes another certificate for the room, and makes alias records in a hosted zone when given one', () => {
    const b = synthesizeAsCli({
      ...DOMAINS,
      ...ENV,
      roomCertificateArn: ROOM_CERTIFICATE,
      hostedZoneId: 'Z0123456789ABC',
      hostedZoneName: 'agora.example.org',
    });
    expect(resources(b.room, 'AWS::ApiGatewayV2::DomainName')[0]!.DomainNameConfigurations[0].CertificateArn).toBe(
      ROOM_CERTIFICATE,
    );
    for (const [stack, name] of [
      [b.api, 'api.agora.example.org.'],
      [b.room, 'room.agora.example.org.'],
    ] as const) {
      const [record] = resources(stack, 'AWS::Route53::RecordSet');
      const domain = resources(stack, 'AWS::ApiGatewayV2::DomainName')[0]!.id;
      expect(record).toMatchObject({
        Name: name,
        Type: 'A',
        HostedZoneId: 'Z0123456789ABC',
        AliasTarget: {
          DNSName: { 'Fn::GetAtt': [domain, 'RegionalDomainName'] },
          HostedZoneId: { 'Fn::GetAtt': [domain, 'RegionalHostedZoneId'] },
        },
      });
    }
  });

  it('keeps the execute-api hosts when no domain is given: no domain name, mapping or record', () => {
    const b = synthesizeAsCli();
    for (const s of [b.api, b.room])
      for (const type of ['AWS::ApiGatewayV2::DomainName', 'AWS::ApiGatewayV2::ApiMapping', 'AWS::Route53::RecordSet'])
        expect(resources(s, type)).toEqual([]);
  });

  it.each([
    [
      { apiDomain: 'api.agora.example.org' },
      /^context certificateArn: api\.agora\.example\.org needs an ACM certificate/,
    ],
    [{ ...DOMAINS, apiDomain: 'https://api.agora.example.org' }, /^context apiDomain: expected a lower-case host name/],
    [{ ...DOMAINS, certificateArn: 'arn:aws:iam::123456789012:role/x' }, /^context certificateArn: expected an ACM/],
    [
      { ...DOMAINS, region: 'us-east-1' },
      /^context certificateArn: the certificate is in eu-central-1, the stacks in us-east-1/,
    ],
    [{ certificateArn: CERTIFICATE }, /^context certificateArn: given without apiDomain or roomDomain/],
    [{ ...DOMAINS, hostedZoneId: 'Z0123456789ABC' }, /^context hostedZoneId and hostedZoneName: give both/],
    [{ ...DOMAINS, hostedZoneId: 'Z0123456789ABC', hostedZoneName: 'other.org' }, /is not in the zone other\.org/],
    [{ ...DOMAINS, roomDomain: DOMAINS.apiDomain }, /^context roomDomain: the room needs a domain of its own/],
  ])('refuses %j with one line naming the parameter', (context, message) => {
    expect(() => synthesizeAsCli({ ...ENV, ...context })).toThrow(message);
  });
});
