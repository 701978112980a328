import { telephonyPort } from '../adapters/index.js';
import { renderTemplate } from '../events/templates.js';
import { logger } from '../logger.js';
import { numbersOfOffer } from '../numbers/lookup.js';
import { leadTokens, type ScheduleAction } from './schedule-steps.js';
import { cached, countContact, stepKey, type StepContext, type StepWork } from './step-work.js';

/** The e-mail and SMS a schedule action sends a lead: queued with the step's save, texts sent after it. */

/** The action's e-mail (queued with the save) and SMS (sent after it), with the lead's tokens. */
export async function messagesOf(work: StepWork, context: StepContext, action: ScheduleAction): Promise<void> {
  const tokens = leadTokens(work.lead);
  const render = (template: unknown): string | undefined => {
    if (typeof template !== 'string' || !template) return undefined;
    try {
      return renderTemplate(template, tokens, 'text');
    } catch (error) {
      logger.warn('schedule action: template not rendered', { error, actionId: action.id, leadId: work.lead.id });
      return undefined;
    }
  };
  const subject = render(action.email_title);
  const body = render(action.email_body);
  if (work.lead.email && subject !== undefined && body !== undefined) {
    work.messages.push({ kind: 'email', id: `${stepKey(work)}.email`, companyId: context.companyId, email: { companyId: context.companyId, kind: 'schedule_action', to: work.lead.email, subject, text: body } });
  }
  const sms = render(action.sms_body);
  if (sms !== undefined && work.lead.caller_id) {
    const from = await smsNumber(context);
    if (from) {
      work.texts.push({ to: work.lead.caller_id, from, body: sms });
      countContact(work);
    } else {
      logger.warn('schedule action: no number to text from (the schedule’s offer has no tracking number)', { actionId: action.id, leadId: work.lead.id });
    }
  }
}

/** The number texts come from: the first tracking number (lowest id) of the schedule's offer. */
function smsNumber(context: StepContext): Promise<string | undefined> {
  const offerId = context.schedule.offer_id;
  if (typeof offerId !== 'number') return Promise.resolve(undefined);
  return cached(context, `sms${offerId}`, async () => {
    // The offer's numbers only (one Query of the number index), not a walk of the company's.
    return (await numbersOfOffer(context.companyId, offerId))[0]?.number;
  });
}

/** After the save: a text that fails is logged and not retried (its contact attempt stays counted). */
export async function sendTexts(work: StepWork): Promise<void> {
  for (const text of work.texts) {
    try {
      await telephonyPort().sendSms(text);
    } catch (error) {
      logger.error('schedule action: SMS not sent', { error, leadId: work.lead.id, to: text.to });
    }
  }
}
