// Environment for the unit-only run (vitest.unit.config.ts): no DynamoDB Local is started, so
// the endpoint points at a closed port; a unit test that reaches the database fails loudly.
process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';
process.env.TABLE_NAME = 'unit-tests-have-no-table';
process.env.AWS_REGION = 'local';
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.EMAIL_ADAPTER = 'local';
process.env.NUMBER_PROVIDER = 'local';
process.env.EVENTS_ADAPTER = 'local';
process.env.TELEPHONY_ADAPTER = 'local';
process.env.TWILIO_AUTH_TOKEN ??= 'test-voice-auth-token';
