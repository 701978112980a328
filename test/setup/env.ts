import { inject } from 'vitest';

// Runs before each test file's imports, so shared/config.ts reads these at module load.
process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.TABLE_NAME = inject('tableName');
process.env.AWS_REGION = 'local';
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.EMAIL_ADAPTER = 'local';
process.env.NUMBER_PROVIDER = 'local';
process.env.EVENTS_ADAPTER = 'local';
process.env.TELEPHONY_ADAPTER = 'local';
process.env.TWILIO_AUTH_TOKEN ??= 'test-voice-auth-token';

// A number range of this file's own (see test/fixtures/number-range.ts). Imported only now: the
// database modules read the settings above when they load.
const { nextGlobalId } = await import('../../shared/db/companies.js');
const { numberRangeOfBlock } = await import('../fixtures/number-range.js');
process.env.LOCAL_NUMBER_RANGE = numberRangeOfBlock(await nextGlobalId('test_number_range'));
