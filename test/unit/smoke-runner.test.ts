import { describe, expect, it } from 'vitest';
import { formatSmokeResult, redactSecrets, runSmokeSteps, smokeFailed, type SmokeStep } from '../../shared/smoke/runner.js';

/** The smoke test's runner on plain steps and a fake clock: order, skips, the clean-up, the lines. */
describe('smoke step runner', () => {
  const ticking = () => {
    let t = 0;
    return () => (t += 5);
  };

  it('skips what needs a failed or skipped step, runs the clean-up anyway, and fails the run', async () => {
    const ran: string[] = [];
    const step = (name: string, outcome: 'pass' | 'fail' | 'skip', extra: Partial<SmokeStep<null>> = {}): SmokeStep<null> => ({
      name,
      ...extra,
      async run() {
        ran.push(name);
        if (outcome === 'fail') throw new Error(`${name} broke`);
        return outcome === 'skip' ? { skip: 'not asked for' } : undefined;
      },
    });
    const results = await runSmokeSteps(
      [step('a', 'pass'), step('b', 'fail', { needs: ['a'] }), step('c', 'pass', { needs: ['b'] }), step('d', 'skip'), step('e', 'pass', { needs: ['d'] }), step('clean', 'pass', { needs: ['b'], always: true })],
      null,
      { now: ticking() },
    );
    expect(ran).toEqual(['a', 'b', 'd', 'clean']);
    expect(results.map((result) => [result.name, result.outcome, result.detail])).toEqual([
      ['a', 'pass', undefined],
      ['b', 'fail', 'b broke'],
      ['c', 'skip', 'needs b'],
      ['d', 'skip', 'not asked for'],
      ['e', 'skip', 'needs d'],
      ['clean', 'pass', undefined],
    ]);
    expect(results[0]!.ms).toBe(5);
    expect(smokeFailed(results)).toBe(true);
    expect(smokeFailed(results.filter((result) => result.outcome !== 'fail'))).toBe(false);
  });

  it('prints one line per step with its time, and never a secret', () => {
    expect(formatSmokeResult({ name: 'call played', outcome: 'pass', ms: 812, detail: 'call 12' })).toBe('PASS  call played (812 ms): call 12');
    expect(formatSmokeResult({ name: 'ping', outcome: 'fail', ms: 40, detail: 'answered 500' })).toBe('FAIL  ping (40 ms): answered 500');
    expect(redactSecrets('FAIL  x: echoed whsec_abcdef and key s3cr3t-private twice s3cr3t-private', ['whsec_abcdef', 's3cr3t-private', undefined, ''])).toBe(
      'FAIL  x: echoed [redacted] and key [redacted] twice [redacted]',
    );
  });
});
