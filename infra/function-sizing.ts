/** Memory of every function (MB): the stack's (function-defaults.ts) and `npm run cost`'s GB-seconds read it here. */
export const FUNCTION_MEMORY_MB = 512;
