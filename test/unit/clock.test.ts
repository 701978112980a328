import { afterEach, describe, expect, it } from 'vitest';
import { clock, setClock } from '../../shared/adapters/clock.js';
import { FixedClock } from '../../shared/adapters/local/fixed-clock.js';
import { systemClock } from '../../shared/adapters/system-clock.js';
import { timeOfId, timeSortableId } from '../../shared/db/ids.js';

afterEach(() => setClock());

describe('the clock port', () => {
  it('is the system clock until a test sets another, and again once restored', () => {
    expect(clock()).toBe(systemClock);
    setClock(new FixedClock('2030-06-15T12:30:30Z'));
    expect(clock().now().toISOString()).toBe('2030-06-15T12:30:30.000Z');
    setClock();
    expect(clock()).toBe(systemClock);
  });

  it('stands still but for one millisecond per reading', () => {
    const fixed = new FixedClock('2030-06-15T12:30:30Z');
    const readings = Array.from({ length: 1000 }, () => fixed.now().getTime());
    expect(readings[0]).toBe(Date.parse('2030-06-15T12:30:30Z'));
    expect(readings[999]! - readings[0]!).toBe(999);
  });

  it('keeps time-sortable ids made under it unique and in order', () => {
    const fixed = new FixedClock('2030-06-15T12:30:30Z');
    const ids = Array.from({ length: 5000 }, () => timeSortableId(fixed.now().getTime()));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(timeOfId(ids[0]!)).toBe(Date.parse('2030-06-15T12:30:30Z'));
  });

  it('refuses an instant that is not one', () => {
    expect(() => new FixedClock('not a time')).toThrow(RangeError);
  });
});
