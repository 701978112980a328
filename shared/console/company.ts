import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { browserTimeZone } from './logic.js';

/**
 * The company's IANA time zone, read once after sign-in (`GET /company`): the Calls and Reports
 * views send it as `time_zone` with their date ranges, so "today" is the company's day.
 */
export const CompanyTimeZone = createContext<string | undefined>(undefined);

/** The zone date ranges are read in: the company's, or the browser's where the company's is missing. */
export function useReportingTimeZone(): string | undefined {
  return useContext(CompanyTimeZone) || browserTimeZone();
}
