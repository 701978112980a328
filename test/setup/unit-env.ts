// Environment for the unit-only run (vitest.unit.config.ts): no DynamoDB Local is started, so
// the endpoint points at a closed port; a unit test that reaches the database fails loudly.
import { registerLocalAdapters, setLocalTestEnvironment } from './adapter-env.js';

process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';
process.env.TABLE_NAME = 'unit-tests-have-no-table';
setLocalTestEnvironment();
await registerLocalAdapters();

// The range the main setup hands each file from a database counter: unit tests reach no database
// and buy no numbers, so one fixed block serves them (test/fixtures/number-range.ts).
const { numberRangeOfBlock } = await import('../fixtures/number-range.js');
process.env.LOCAL_NUMBER_RANGE = numberRangeOfBlock(1);
