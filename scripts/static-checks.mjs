// The type check and the type-aware lint, side by side: each is one busy thread, and the test
// machines have two cores, so running them together costs the time of the slower one.
import { spawn } from 'node:child_process';

const checks = [
  ['typecheck', ['npm', 'run', '--silent', 'typecheck']],
  ['lint', ['npm', 'run', '--silent', 'lint']],
];

const results = await Promise.all(
  checks.map(
    ([name, [command, ...args]]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { stdio: 'inherit' });
        child.on('close', (code) => resolve({ name, code }));
      }),
  ),
);
const failed = results.filter((result) => result.code !== 0);
for (const { name, code } of failed) console.error(`${name} failed (exit ${code})`);
process.exit(failed.length ? 1 : 0);
