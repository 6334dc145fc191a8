// Installs a Debian package for the test suite when we are allowed to: as root, or with
// passwordless sudo. Used by ensure-chromium.mjs and ensure-parallel.mjs.
import { spawnSync } from 'node:child_process';

/** Runs apt-get update and install for `pkg`, echoing each command through `say`; false when
 *  we may not install or a command fails. */
export function aptInstall(pkg, say) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const prefix = root ? null : spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0 ? 'sudo' : false;
  if (prefix === false) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['apt-get', 'update'],
    ['apt-get', 'install', '-y', pkg],
  ]) {
    const cmd = prefix ? [prefix, ...args] : args;
    say(`running: ${cmd.join(' ')}`);
    if (spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit', env }).status !== 0) return false;
  }
  return true;
}
