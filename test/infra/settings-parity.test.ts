import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppFunction } from '../../lib/app-function.ts';
import { fieldsReadBy, SETTINGS, type SettingsRow, settingsReport, variablesByField } from '../support/aws/settings.ts';
import { synthesizeAsCli } from '../support/synth.ts';

/**
 * Every variable a Lambda's configuration reads is set by CDK on that function, in the templates `npx cdk synth`
 * makes, with a value of the right shape; a secret it names is one of the stacks' and its role may read it
 * (test/support/aws/settings.ts derives what each function reads from its bundle).
 */
let rows: SettingsRow[];
beforeAll(() => {
  rows = settingsReport();
}, 600_000);

const functionOf = (built: ReturnType<typeof synthesizeAsCli>, path: string) => {
  const found = built.app.node
    .findAll()
    .find((c): c is AppFunction => c instanceof AppFunction && `${c.stack.stackName}/${c.node.id}` === path);
  if (!found) throw new Error(`no function ${path}`);
  return found.node.defaultChild as CfnFunction;
};

describe('setting parity (every variable a function reads, set on it by CDK)', () => {
  it('holds for every function of the app', () => {
    expect(rows.filter((r) => !r.ok).map((r) => `${r.fn}: ${r.detail}`)).toEqual([]);
  });

  it('has one row per Lambda of the templates, each naming what it reads', () => {
    const built = synthesizeAsCli();
    const lambdas = built.app.synth().stacks.flatMap((s) =>
      Object.entries(s.template.Resources as Record<string, { Type: string }>)
        .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
        .map(([id]) => `${s.stackName}/${id}`),
    );
    expect(rows).toHaveLength(lambdas.length);
    expect(new Set(rows.map((r) => r.fn)).size).toBe(rows.length);
    expect(rows.find((r) => r.fn === 'Agora-dev-Room/RoomBot')?.detail).toMatch(/FILES_BUCKET.*TABLE_NAME/);
  });

  it('derives what a function reads from its bundle, and each setting from readConfig', () => {
    expect(fieldsReadBy('room-page/page')).toContain('roomSocket');
    expect(fieldsReadBy('room/bot')).toEqual(expect.arrayContaining(['filesBucket', 'docserviceSecretArn']));
    // The webhook sender keeps no secret of the stacks and shows no room.
    expect(fieldsReadBy('bots/webhook-changes')).not.toContain('participationSecretArn');
    expect(fieldsReadBy('bots/webhook-changes')).not.toContain('roomSocket');
    const variables = variablesByField();
    expect(variables.get('keyRate')).toEqual(['AGORA_KEY_RATE', 'AGORA_KEY_BURST']);
    for (const [field, rule] of Object.entries(SETTINGS))
      if (rule.by === 'cdk') expect(variables.get(field)?.length, field).toBeGreaterThan(0);
  });

  it('fails naming the function and the variable: one removed, one of the wrong shape, a secret its role may not read', () => {
    const built = synthesizeAsCli();
    functionOf(built, 'Agora-dev-Bots/ConvoyBot').addPropertyOverride(
      'Environment.Variables.AGORA_CALENDAR',
      'sometimes',
    );
    // A participation route pointed at the document service's key, which its role may not read.
    const bot = functionOf(built, 'Agora-dev-Room/RoomBot');
    const room = built.app.synth().getStackByName('Agora-dev-Room').template;
    const docserviceKey =
      room.Resources[bot.stack.getLogicalId(bot)].Properties.Environment.Variables.DOCSERVICE_SECRET_ARN;
    const connect = functionOf(built, 'Agora-dev-Room/RoomConnect');
    connect.addPropertyOverride('Environment.Variables.PARTICIPATION_SECRET_ARN', docserviceKey);
    bot.addPropertyDeletionOverride('Environment.Variables.FILES_BUCKET');
    const failing = Object.fromEntries(
      settingsReport(built)
        .filter((r) => !r.ok)
        .map((r) => [r.fn, r.detail]),
    );
    expect(Object.keys(failing).sort()).toEqual([
      'Agora-dev-Bots/ConvoyBot',
      'Agora-dev-Room/RoomBot',
      'Agora-dev-Room/RoomConnect',
    ]);
    expect(failing['Agora-dev-Room/RoomBot']).toContain('FILES_BUCKET (config.filesBucket) not set');
    expect(failing['Agora-dev-Bots/ConvoyBot']).toContain('AGORA_CALENDAR=sometimes: not a calendar mode');
    expect(failing['Agora-dev-Room/RoomConnect']).toMatch(
      /PARTICIPATION_SECRET_ARN: role Agora-dev-Room\/RoomConnectServiceRole\w+ may not secretsmanager:GetSecretValue on arn:aws:secretsmanager:.*DocserviceKey/,
    );
  }, 300_000);
});
