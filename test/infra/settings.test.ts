import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, DEFAULT_STAGE, SETTING_KEYS, readSettings, stackName } from '../../infra/settings.js';

const settingsOf = (context: Record<string, unknown>, stage?: string) => readSettings(new App({ context }).node, stage);

describe('settings', () => {
  it('has defaults for everything, so a bare synth works', () => {
    const settings = settingsOf({});
    expect(settings).toMatchObject({
      stage: DEFAULT_STAGE,
      emailFrom: DEFAULTS.emailFrom,
      apiRateLimit: DEFAULTS.apiRateLimit,
      apiBurstLimit: DEFAULTS.apiBurstLimit,
      partnerRateLimit: DEFAULTS.partnerRateLimit,
      partnerBurstLimit: DEFAULTS.partnerBurstLimit,
      voiceReservedConcurrency: DEFAULTS.voiceReservedConcurrency,
      logRetention: RetentionDays.ONE_MONTH,
      webhook: {},
      apiRoutes: 'all',
    });
    expect(settingsOf({ apiRoutes: 'none' }).apiRoutes).toBe('none');
    // Only for one deploy: a stage's block in cdk.json may not hold it.
    expect(() => settingsOf({ stages: { prod: { apiRoutes: 'none' } } })).toThrow(/unknown settings: apiRoutes/);
    expect(DEFAULT_STAGE).toBe('prod');
    expect(settings.alarmEmail).toBeUndefined();
    expect(settings.twilioAuthTokenSecret).toBeUndefined();
    // The partner routes are the tighter ones.
    expect(DEFAULTS.partnerRateLimit).toBeLessThan(DEFAULTS.apiRateLimit);
  });

  it("takes the stage's block from cdk.json's stages, a flat (-c) key over it, and ignores other stages' blocks", () => {
    const context = {
      stage: 'staging',
      stages: {
        prod: { alarmEmail: 'prod-ops@example.com', apiRateLimit: 900 },
        staging: { alarmEmail: 'staging-ops@example.com', apiRateLimit: 80, partnerRateLimit: 10 },
      },
    };
    expect(settingsOf(context)).toMatchObject({ stage: 'staging', alarmEmail: 'staging-ops@example.com', apiRateLimit: 80, partnerRateLimit: 10 });
    expect(settingsOf({ ...context, alarmEmail: 'override@example.com', apiRateLimit: '120' })).toMatchObject({
      alarmEmail: 'override@example.com',
      apiRateLimit: 120,
    });
    // A stage given by the caller (several stages in one app) wins over the stage key.
    expect(settingsOf(context, 'prod')).toMatchObject({ stage: 'prod', alarmEmail: 'prod-ops@example.com', apiRateLimit: 900 });
  });

  it('accepts the shipped cdk.json for each of its stages', () => {
    const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: { stage: string; stages: Record<string, unknown> } };
    expect(Object.keys(context.stages)).toContain(context.stage);
    for (const stage of Object.keys(context.stages)) expect(settingsOf(context, stage).stage).toBe(stage);
    expect(settingsOf(context).stage).toBe('prod');
  });

  it('refuses a stage missing from cdk.json\'s stages (a typo would deploy a new stack) and settings it does not know', () => {
    expect(() => settingsOf({ stage: 'prdo', stages: { prod: {} } })).toThrow(/stage "prdo" is not in cdk.json's stages/);
    expect(() => settingsOf({ stages: { prod: { alarmMail: 'ops@example.com' } } })).toThrow(/unknown settings: alarmMail/);
    expect(() => settingsOf({ stage: 'Prod' })).toThrow(/stage must be/);
    expect(SETTING_KEYS).toContain('voiceReservedConcurrency');
  });

  it.each([
    [{ emailFrom: 'Call Tracking <noreply@example.com>' }, /emailFrom must be a bare e-mail address/],
    [{ alarmEmail: 'ops' }, /alarmEmail must be an e-mail address/],
    [{ twilioAuthTokenSecret: 'has spaces in it' }, /twilioAuthTokenSecret/],
    [{ twilioApiBase: 'http://api.twilio.com' }, /twilioApiBase must be an https/],
    [{ webhookAllowedCidrs: '10.0.0.0/33' }, /WEBHOOK_ALLOWED_CIDRS/],
    [{ webhookRetrySchedule: '1 day' }, /WEBHOOK_RETRY_SCHEDULE/],
    [{ webhookDisableAfter: 'soon' }, /WEBHOOK_DISABLE_AFTER/],
    [{ apiRateLimit: 0 }, /apiRateLimit must be a positive number/],
    [{ apiBurstLimit: 10.5 }, /apiBurstLimit must be a positive integer/],
    [{ partnerRateLimit: 500 }, /must not exceed apiRateLimit/],
    [{ voiceReservedConcurrency: 0 }, /voiceReservedConcurrency must be a positive integer/],
    [{ logRetentionDays: 31 }, /logRetentionDays must be one of/],
    [{ apiRoutes: 'some' }, /apiRoutes must be "all" or "none"/],
  ])('refuses %j at synth', (context, message) => {
    expect(() => settingsOf(context)).toThrow(message);
  });

  it('reads numbers given as -c strings, `none` reserves no concurrency, and the retention is one CloudWatch offers', () => {
    expect(settingsOf({ voiceReservedConcurrency: '40', logRetentionDays: '90' })).toMatchObject({ voiceReservedConcurrency: 40, logRetention: RetentionDays.THREE_MONTHS });
    expect(settingsOf({ voiceReservedConcurrency: 'none' }).voiceReservedConcurrency).toBeUndefined();
    expect(settingsOf({ stages: { prod: { voiceReservedConcurrency: null } } }).voiceReservedConcurrency).toBeUndefined();
  });

  it('passes only the webhook settings that are set to the delivery function, and sizes the retry policy from them', () => {
    const settings = settingsOf({ webhookRetrySchedule: '1m,1h', webhookAllowedCidrs: '' });
    expect(settings.webhook).toEqual({ WEBHOOK_RETRY_SCHEDULE: '1m,1h' });
    expect(settings.retryPolicy.delays).toEqual([60, 3600]);
  });

  it('names the stack after the stage', () => {
    expect(stackName('prod')).toBe('CallTrackingService-prod');
    expect(stackName('staging')).toBe('CallTrackingService-staging');
  });
});
