import { describe, expect, it } from 'vitest';
import { routeGroups, type RouteGroup } from '../../shared/http/route-groups.js';
import { actionsOf, synth } from './support.js';

/**
 * Sound files' audio in AWS: the route groups with the objects ports (configuration writes and
 * serves it, voice presigns the carrier's URLs with its own role) are told where the bucket is
 * and may reach its sounds/ prefix only: never the lead exports beside it. The admin function
 * (port exports) reaches the exports/ prefix only.
 */
const { stack, logicalIdOf, variablesOf, statementsOf } = synth();
const uploads = stack.leadRunner.uploads;
const soundObjects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(uploads), 'Arn'] }, '/sounds/*']] };

/** S3 statements on the uploads bucket (a function may reach the transcripts bucket too: test/infra/transcription.test.ts). */
const uploadsStatements = (fn: Parameters<typeof statementsOf>[0]) =>
  statementsOf(fn).filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')) && JSON.stringify(statement.Resource).includes(logicalIdOf(uploads)));

const portsOf = (group: RouteGroup): readonly string[] => (routeGroups[group] as { ports?: readonly string[] }).ports ?? [];

describe('sound storage in AWS', () => {
  it('gives the configuration function GetObject, PutObject and DeleteObject on the sounds prefix, with the bucket settings', () => {
    expect(portsOf('configuration')).toContain('objects');
    const fn = stack.api.groupFunctions.configuration;
    expect(uploadsStatements(fn)).toEqual([{ Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], Effect: 'Allow', Resource: soundObjects }]);
    expect(variablesOf(fn)).toMatchObject({ OBJECT_STORAGE_ADAPTER: 's3', OBJECT_STORAGE_BUCKET: { Ref: logicalIdOf(uploads) } });
  });

  it('gives the voice function GetObject alone on the sounds prefix (its presigned URLs act with its role)', () => {
    expect(portsOf('voice')).toContain('object_reads');
    const fn = stack.api.groupFunctions.voice;
    expect(uploadsStatements(fn)).toEqual([{ Action: 's3:GetObject', Effect: 'Allow', Resource: soundObjects }]);
    expect(variablesOf(fn)).toMatchObject({ OBJECT_STORAGE_ADAPTER: 's3', OBJECT_STORAGE_BUCKET: { Ref: logicalIdOf(uploads) } });
  });

  it('gives the admin function GetObject, PutObject and DeleteObject on the exports prefix alone (table exports), with the bucket settings', () => {
    expect(portsOf('admin')).toContain('exports');
    const fn = stack.api.groupFunctions.admin;
    const exportObjects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(uploads), 'Arn'] }, '/exports/*']] };
    expect(uploadsStatements(fn)).toEqual([{ Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], Effect: 'Allow', Resource: exportObjects }]);
    expect(variablesOf(fn)).toMatchObject({ OBJECT_STORAGE_ADAPTER: 's3', OBJECT_STORAGE_BUCKET: { Ref: logicalIdOf(uploads) } });
  });

  it('gives no other API function access to the uploads bucket', () => {
    const others = (Object.keys(routeGroups) as RouteGroup[]).filter((group) => !portsOf(group).some((port) => port === 'objects' || port === 'object_reads' || port === 'exports' || port === 'imports'));
    for (const group of others) {
      expect(uploadsStatements(stack.api.groupFunctions[group]), group).toEqual([]);
    }
  });
});
