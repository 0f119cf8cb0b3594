// node scripts/in-turn.mjs "<command>" "<command>" …: runs the commands one after another, each to
// its end whatever the one before did, and exits 1 if any failed (issue 39: with `a && b`, a
// failure of `a` hid whether `b` passed). `npm test` runs its checks then its suites this way, and
// each lane of the suites its steps. The last line names every command that failed.
import { spawnSync } from 'node:child_process';

const commands = process.argv.slice(2);
const failed = [];
for (const command of commands) {
  const { status, signal } = spawnSync(command, { shell: true, stdio: 'inherit' });
  if (status !== 0) failed.push(`${command} (${signal ? `signal ${signal}` : `exit ${status}`})`);
}
console.log(
  failed.length === 0
    ? `in turn: all ${commands.length} passed`
    : `in turn: ${failed.length} of ${commands.length} failed: ${failed.join('; ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
